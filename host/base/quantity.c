/* quantity.c -- a number with an optional unit suffix, converted to SI (hs_parse_quantity,
 * include/hs/model_file.h): the one rule for every value of a model, sweep or --set. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs/model_file.h"

typedef struct unit_def {
    const char *suffix;
    double factor; /* SI value of one suffix unit */
    const char *family; /* SI unit the value is converted to */
} unit_def;

static const unit_def k_units[] = {
    {"rad", 1.0, "rad"},
    {"deg", HS_PI / 180.0, "rad"},
    {"m", 1.0, "m"},
    {"mm", 1e-3, "m"},
    {"cm", 1e-2, "m"},
    {"kg", 1.0, "kg"},
    {"g", 1e-3, "kg"},
    {"s", 1.0, "s"},
    {"ms", 1e-3, "s"},
    {"N", 1.0, "N"},
    {"kN", 1e3, "N"},
    {"Pa", 1.0, "Pa"},
    {"kPa", 1e3, "Pa"},
    {"MPa", 1e6, "Pa"},
    {"GPa", 1e9, "Pa"},
    {"bar", 1e5, "Pa"},
    {"Hz", 1.0, "Hz"},
    {"m/s", 1.0, "m/s"},
    {"mm/s", 1e-3, "m/s"},
    {"rad/s", 1.0, "rad/s"},
    {"deg/s", HS_PI / 180.0, "rad/s"},
    {"m/s^2", 1.0, "m/s^2"},
    {"N/m", 1.0, "N/m"},
    {"Ns/m", 1.0, "N s/m"},
    {"N s/m", 1.0, "N s/m"},
    {"N m", 1.0, "N m"},
    {"Nm", 1.0, "N m"},
    {"N m s/rad", 1.0, "N m s/rad"},
    {"N m s", 1.0, "N m s/rad"},
    {"N m/rad", 1.0, "N m/rad"},
    {"kN m/rad", 1e3, "N m/rad"},
    {"N m/deg", 180.0 / HS_PI, "N m/rad"},
    {"kN/m", 1e3, "N/m"},
    {"N/mm", 1e3, "N/m"},
    {"kN s/m", 1e3, "N s/m"},
    {"m^3", 1.0, "m^3"},
    {"L", 1e-3, "m^3"},
    {"cm^3", 1e-6, "m^3"},
    {"m^3/s", 1.0, "m^3/s"},
    {"m^3/(s Pa)", 1.0, "m^3/(s Pa)"},
    {"L/(min bar)", 1e-3 / 60.0 / 1e5, "m^3/(s Pa)"},
    {"m^3/rev", 1.0, "m^3/rev"},
    {"cm^3/rev", 1e-6, "m^3/rev"},
    {"L/rev", 1e-3, "m^3/rev"},
    {"rpm", HS_PI / 30.0, "rad/s"},
    {"L/min", 1e-3 / 60.0, "m^3/s"},
    {"m^2", 1.0, "m^2"},
    {"cm^2", 1e-4, "m^2"},
    {"mm^2", 1e-6, "m^2"},
    {"kg m^2", 1.0, "kg m^2"},
    {"kg/m^3", 1.0, "kg/m^3"},
    {"s/m", 1.0, "s/m"},
    {"V", 1.0, "V"},
    {"m^3/(s sqrt(Pa))", 1.0, "m^3/(s sqrt(Pa))"},
    {"m^3/(s V sqrt(Pa))", 1.0, "m^3/(s V sqrt(Pa))"},
};

/* Accepts only a decimal number ([+-] digits [. digits] [e[+-]digits]); strtod alone would
 * also take "inf", "nan" and hex floats, which are not meant as model values. Returns the
 * length of the number, 0 if there is none. */
static size_t scan_number(const char *s)
{
    size_t i = 0, digits = 0;
    if (s[i] == '+' || s[i] == '-') ++i;
    while (isdigit((unsigned char)s[i])) ++i, ++digits;
    if (s[i] == '.') {
        ++i;
        while (isdigit((unsigned char)s[i])) ++i, ++digits;
    }
    if (digits == 0) return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        size_t j = i + 1;
        if (s[j] == '+' || s[j] == '-') ++j;
        if (isdigit((unsigned char)s[j])) {
            while (isdigit((unsigned char)s[j])) ++j;
            i = j;
        }
    }
    return i;
}

int hs_parse_quantity(const char *s, double *value, char *unit_out, size_t unit_n)
{
    char num[64], unit[32];
    size_t len, ulen, k;
    const char *u;
    double v;
    if (!s || !value) return -1;
    while (isspace((unsigned char)*s)) ++s;
    len = scan_number(s);
    if (len == 0 || len >= sizeof num) return -1;
    memcpy(num, s, len);
    num[len] = '\0';
    errno = 0;
    v = strtod(num, NULL);
    if (errno == ERANGE && fabs(v) > 1.0) return -1; /* overflow; underflow to 0 is fine */
    if (!isfinite(v)) return -1;
    u = s + len;
    while (isspace((unsigned char)*u)) ++u;
    ulen = strlen(u);
    while (ulen > 0 && isspace((unsigned char)u[ulen - 1])) --ulen;
    if (ulen >= sizeof unit) return -1;
    memcpy(unit, u, ulen);
    unit[ulen] = '\0';
    if (ulen == 0) {
        *value = v;
        if (unit_out && unit_n) unit_out[0] = '\0';
        return 0;
    }
    for (k = 0; k < sizeof k_units / sizeof k_units[0]; ++k) {
        if (strcmp(unit, k_units[k].suffix) == 0) {
            *value = v * k_units[k].factor;
            if (unit_out && unit_n) snprintf(unit_out, unit_n, "%s", k_units[k].family);
            return 0;
        }
    }
    return -1;
}
