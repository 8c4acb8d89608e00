/* fileio.c -- bounded, non-blocking input reads, output path checks, write locks and I/O
 * error reports (fileio.h). */
#define _DEFAULT_SOURCE 1 /* flock (BSD) next to the POSIX 2008 interfaces */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"

const char *hs_file_kind(unsigned long mode)
{
    mode_t m = (mode_t)mode;
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO (named pipe)";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    if (S_ISREG(m)) return "a regular file";
    return "not a regular file";
}

/* The refusal of a non-regular input (HS_ERR_IO). */
static int not_regular(const char *path, const char *what, const struct stat *st, hs_error *err)
{
    if (S_ISDIR(st->st_mode))
        return hs_error_set(err, HS_ERR_IO, path, 0, 0, "", "the %s is a directory, not a file",
                            what);
    return hs_error_set(err, HS_ERR_IO, path, 0, 0, "",
                        "the %s is %s, not a regular file (only regular files are read: a pipe "
                        "or device may block or never end)",
                        what, hs_file_kind((unsigned long)st->st_mode));
}

int hs_check_input_file(const char *path, const char *what, hs_error *err)
{
    struct stat st;
    if (!path || !path[0]) return hs_error_set(err, HS_ERR_IO, "", 0, 0, "", "no %s given", what);
    if (stat(path, &st) != 0)
        return hs_error_set(err, HS_ERR_IO, path, 0, 0, "", "cannot open the %s: %s", what,
                            strerror(errno));
    if (!S_ISREG(st.st_mode)) return not_regular(path, what, &st, err);
    return HS_OK;
}

int hs_read_input(const char *path, const char *what, size_t max, char **text, size_t *len,
                  hs_error *err)
{
    struct stat st;
    char *buf = NULL, *nb;
    size_t n = 0, cap;
    int fd, rc;
    *text = NULL;
    if (len) *len = 0;
    /* stat first: a device is never even opened (opening some has side effects) */
    if ((rc = hs_check_input_file(path, what, err)) != HS_OK) return rc;
    /* O_NONBLOCK: should a FIFO have been put at path meanwhile, open does not wait for a
     * writer; fstat then refuses it */
    fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return hs_error_set(err, HS_ERR_IO, path, 0, 0, "", "cannot open the %s: %s", what,
                            strerror(errno));
    if (fstat(fd, &st) != 0) {
        rc = hs_error_set(err, HS_ERR_IO, path, 0, 0, "", "cannot read the %s: %s", what,
                          strerror(errno));
        close(fd);
        return rc;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return not_regular(path, what, &st, err);
    }
    if (st.st_size > 0 && (unsigned long long)st.st_size > (unsigned long long)max) {
        close(fd);
        return hs_error_set(err, HS_ERR_IO, path, 0, 0, "",
                            "the %s has %lld bytes, more than the %lu bytes (%lu MiB) a %s may "
                            "have",
                            what, (long long)st.st_size, (unsigned long)max,
                            (unsigned long)(max >> 20), what);
    }
    /* the size may change while reading (or be 0 for some special files): read to the end,
     * never more than max + 1 bytes */
    cap = (size_t)st.st_size + 1 < 4096 ? 4096 : (size_t)st.st_size + 1;
    if (cap > max + 1) cap = max + 1;
    buf = (char *)malloc(cap + 1);
    while (buf) {
        ssize_t got;
        if (n == cap) {
            size_t nc = cap >= (max + 1) / 2 ? max + 1 : 2 * cap;
            if (nc <= cap) break; /* max + 1 bytes read: too large, reported below */
            nb = (char *)realloc(buf, nc + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap = nc;
        }
        got = read(fd, buf + n, cap - n);
        if (got < 0) {
            if (errno == EINTR) continue;
            rc = hs_error_set(err, HS_ERR_IO, path, 0, 0, "", "cannot read the %s: %s", what,
                              strerror(errno));
            free(buf);
            close(fd);
            return rc;
        }
        if (got == 0) break;
        n += (size_t)got;
    }
    if (!buf) {
        close(fd);
        return hs_error_set(err, HS_ERR_IO, path, 0, 0, "", "out of memory reading the %s", what);
    }
    close(fd);
    if (n > max) {
        free(buf);
        return hs_error_set(err, HS_ERR_IO, path, 0, 0, "",
                            "the %s has more than the %lu bytes (%lu MiB) a %s may have", what,
                            (unsigned long)max, (unsigned long)(max >> 20), what);
    }
    buf[n] = '\0';
    *text = buf;
    if (len) *len = n;
    return HS_OK;
}

/* The directory part of path ("." when it has none) into buf. */
static void dir_of(const char *path, char *buf, size_t n)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(buf, n, ".");
    else if (slash == path)
        snprintf(buf, n, "/");
    else
        snprintf(buf, n, "%.*s", (int)(slash - path), path);
}

/* The target of the symbolic link path as a bounded, printable text ("?" where it cannot be
 * read), for messages. */
static const char *link_target(const char *path, char *buf, size_t n)
{
    ssize_t k = n > 1 ? readlink(path, buf, n - 1) : -1;
    size_t i;
    if (k < 0) {
        snprintf(buf, n, "?");
        return buf;
    }
    buf[k] = '\0';
    for (i = 0; i < (size_t)k; ++i)
        if ((unsigned char)buf[i] < 0x20 || (unsigned char)buf[i] == 0x7f) buf[i] = '?';
    return buf;
}

/* The refusal of an output path that is a symbolic link (HS_ERR_ARG). */
static int refuse_link(const char *path, const char *what, hs_error *err)
{
    char t[200];
    return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "",
                        "the %s is a symbolic link (to %.120s): hydrosweep never writes through a "
                        "link or replaces one; name the file itself, or remove the link",
                        what, link_target(path, t, sizeof t));
}

/* A regular file that others share is not ours to replace: a second hard link (its other
 * names would see what is written here, and an attacker's link at OUT.h5.part would have the
 * run destroy the file it points to) or another owner. HS_OK for a file we alone name. */
static int refuse_shared(const char *path, const char *what, const struct stat *st, hs_error *err)
{
    if (st->st_nlink > 1)
        return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "",
                            "the %s has %lu hard links: writing it would change the file its other "
                            "names share; hydrosweep writes only a file it alone names (remove the "
                            "name, or choose another)",
                            what, (unsigned long)st->st_nlink);
    if (st->st_uid != geteuid())
        return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "",
                            "the %s belongs to another user (uid %lu): hydrosweep replaces only its "
                            "user's own files (remove it, or choose another name)",
                            what, (unsigned long)st->st_uid);
    return HS_OK;
}

int hs_check_output_file(const char *path, const char *what, hs_error *err)
{
    struct stat st;
    char dir[1024];
    if (!path || !path[0]) return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "", "no %s given", what);
    if (path[strlen(path) - 1] == '/')
        return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "",
                            "the %s must name a file, not a directory", what);
    /* lstat: the name itself, not what a link at it points to */
    if (lstat(path, &st) == 0) {
        if (S_ISLNK(st.st_mode)) return refuse_link(path, what, err);
        if (S_ISDIR(st.st_mode))
            return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "",
                                "the %s is a directory: name a file (e.g. %s/out.h5)", what, path);
        if (!S_ISREG(st.st_mode))
            return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "",
                                "the %s is %s, not a regular file: hydrosweep writes only regular "
                                "files (a new name, or a file it may replace)",
                                what, hs_file_kind((unsigned long)st.st_mode));
        return refuse_shared(path, what, &st, err);
    }
    if (errno != ENOENT)
        return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "", "cannot write the %s: %s", what,
                            strerror(errno));
    dir_of(path, dir, sizeof dir);
    if (stat(dir, &st) != 0)
        return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "",
                            "cannot write the %s: directory %s: %s", what, dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "",
                            "cannot write the %s: %s is not a directory", what, dir);
    if (access(dir, W_OK | X_OK) != 0)
        return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "",
                            "cannot write the %s: directory %s: %s", what, dir, strerror(errno));
    return HS_OK;
}

int hs_lock_file(const char *path, const char *what, int *fdp, int *created, hs_error *err)
{
    int tries, rc;
    *fdp = -1;
    if (created) *created = 0;
    for (tries = 0; tries < 8; ++tries) {
        struct stat a, b;
        int fd, made = 0;
        /* O_NOFOLLOW: a link planted at path is refused, never written through */
        fd = open(path, O_RDWR | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0 && errno == ENOENT) {
            fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW, 0666);
            if (fd < 0 && errno == EEXIST) continue; /* made by someone else meanwhile */
            made = fd >= 0;
        }
        if (fd < 0 && errno == ELOOP) return refuse_link(path, what, err);
        if (fd < 0)
            return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "", "cannot create the %s: %s", what,
                                strerror(errno));
        if (fstat(fd, &a) != 0) {
            rc = hs_error_set(err, HS_ERR_ARG, path, 0, 0, "", "cannot use the %s: %s", what,
                              strerror(errno));
            close(fd);
            return rc;
        }
        if (!S_ISREG(a.st_mode)) {
            close(fd);
            return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "", "the %s is %s, not a regular file",
                                what, hs_file_kind((unsigned long)a.st_mode));
        }
        if ((rc = refuse_shared(path, what, &a, err))) { /* (a link made since the path's check) */
            close(fd);
            return rc;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int e = errno;
            if (e == EWOULDBLOCK || e == EAGAIN) {
                close(fd);
                return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "",
                                    "the %s is locked: another process (a hydrosweep run, resume "
                                    "or merge) is writing it; two runs cannot write the same "
                                    "results at once (wait for it, or choose another -o)",
                                    what);
            }
            if (e != ENOLCK && e != EOPNOTSUPP && e != EINVAL) {
                close(fd);
                return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "", "cannot lock the %s: %s",
                                    what, strerror(e));
            }
            /* a file system without locks: go on unlocked */
        }
        /* the lock must be on the file that is at path now: a writer that finished may
         * have renamed ours away between our open and our lock */
        if (lstat(path, &b) != 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
            close(fd);
            continue;
        }
        *fdp = fd;
        if (created) *created = made;
        return HS_OK;
    }
    return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "",
                        "cannot lock the %s: it keeps being replaced by another process", what);
}

int hs_lock_check(int fd, const char *path, hs_error *err)
{
    struct stat a, b;
    if (fd < 0) return HS_OK;
    if (fstat(fd, &a) != 0)
        return hs_error_set(err, HS_ERR_IO, path, 0, 0, "", "cannot check the file: %s",
                            strerror(errno));
    if (lstat(path, &b) != 0)
        return hs_error_set(err, HS_ERR_IO, path, 0, 0, "",
                            "the file was removed or renamed by another process while it was "
                            "written: its results cannot be trusted");
    if (a.st_nlink == 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino)
        return hs_error_set(err, HS_ERR_IO, path, 0, 0, "",
                            "the file was replaced by another process while it was written: its "
                            "results cannot be trusted");
    return HS_OK;
}

FILE *hs_open_output(const char *path, const char *what, hs_error *err)
{
    struct stat st;
    FILE *f;
    int fd, fl;
    if (hs_check_output_file(path, what, err)) return NULL;
    /* O_NOFOLLOW: a link put at path since the check is refused too; O_NONBLOCK: a FIFO put
     * there never blocks the open (it is refused below); truncated only once the open file is
     * known to be ours alone (refuse_shared) */
    fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (fd < 0) {
        int e = errno;
        if (e == ELOOP) {
            refuse_link(path, what, err);
            return NULL;
        }
        hs_error_set(err, HS_ERR_ARG, path, 0, 0, "", "cannot write the %s: %s%s", what,
                     strerror(e), e == ENXIO ? " (a FIFO that no process is reading)" : "");
        return NULL;
    }
    if (fstat(fd, &st) != 0) st.st_mode = 0;
    if (!S_ISREG(st.st_mode)) {
        hs_error_set(err, HS_ERR_ARG, path, 0, 0, "", "the %s is %s, not a regular file", what,
                     hs_file_kind((unsigned long)st.st_mode));
        close(fd);
        return NULL;
    }
    if (refuse_shared(path, what, &st, err) || ftruncate(fd, 0) != 0) {
        if (err && !err->msg[0])
            hs_error_set(err, HS_ERR_ARG, path, 0, 0, "", "cannot write the %s: %s", what, strerror(errno));
        close(fd);
        return NULL;
    }
    /* back to blocking writes */
    fl = fcntl(fd, F_GETFL);
    if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    f = fdopen(fd, "w");
    if (!f) {
        hs_error_set(err, HS_ERR_ARG, path, 0, 0, "", "cannot write the %s: %s", what,
                     strerror(errno));
        close(fd);
    }
    return f;
}

int hs_close_output(FILE *f, const char *path, int saved_errno, hs_error *err)
{
    int e = saved_errno, bad = saved_errno != 0;
    if (!f) return HS_OK;
    errno = 0;
    if (fflush(f) != 0) {
        bad = 1;
        if (!e) e = errno;
    }
    if (ferror(f)) {
        bad = 1;
        if (!e) e = errno;
    }
    if (f != stdout && f != stderr) {
        errno = 0;
        if (fclose(f) != 0) {
            bad = 1;
            if (!e) e = errno;
        }
    }
    if (!bad) return HS_OK;
    return hs_error_set(err, HS_ERR_IO, path, 0, 0, "", "cannot write: %s",
                        e ? strerror(e) : "write error");
}

static void output_free(hs_output *o)
{
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

int hs_output_begin(hs_output *o, const char *path, const char *what, hs_error *err)
{
    size_t n = strlen(path ? path : "");
    memset(o, 0, sizeof *o);
    if (hs_check_output_file(path, what, err)) return err ? err->code : HS_ERR_ARG;
    o->path = (char *)malloc(n + 1);
    o->tmp = (char *)malloc(n + 6);
    if (!o->path || !o->tmp) {
        output_free(o);
        return hs_error_set(err, HS_ERR_IO, path, 0, 0, "", "out of memory");
    }
    memcpy(o->path, path, n + 1);
    snprintf(o->tmp, n + 6, "%s.part", path);
    if (!(o->f = hs_open_output(o->tmp, what, err))) {
        output_free(o);
        return err ? err->code : HS_ERR_ARG;
    }
    return HS_OK;
}

int hs_output_commit(hs_output *o, int saved_errno, hs_error *err)
{
    int rc = HS_OK, e = 0;
    if (!o->f) return hs_error_set(err, HS_ERR_ARG, o->path ? o->path : "", 0, 0, "", "no output open");
    if (fflush(o->f) != 0 || fsync(fileno(o->f)) != 0) e = errno;
    rc = hs_close_output(o->f, o->path, saved_errno ? saved_errno : e, err);
    o->f = NULL;
    if (!rc && (rc = hs_check_output_file(o->path, "output", err)) == HS_OK && rename(o->tmp, o->path) != 0)
        rc = hs_error_set(err, HS_ERR_IO, o->path, 0, 0, "", "cannot rename %s to it: %s", o->tmp, strerror(errno));
    if (rc) remove(o->tmp);
    output_free(o);
    return rc;
}

void hs_output_abandon(hs_output *o)
{
    if (o->f) fclose(o->f);
    if (o->tmp) remove(o->tmp);
    output_free(o);
}

int hs_same_file(const char *a, const char *b)
{
    struct stat x, y;
    if (!a || !b || stat(a, &x) != 0 || stat(b, &y) != 0) return 0;
    return x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

int hs_max_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    long t = n > 0 ? 4 * n : 4;
    if (t < 4) t = 4;
    if (t > 1024) t = 1024;
    return (int)t;
}

/* The first number in file path (bytes), or -1 when it cannot be read or is "max". */
static double read_bytes(const char *path)
{
    FILE *f = fopen(path, "r");
    double v = -1.0;
    if (f) {
        if (fscanf(f, "%lf", &v) != 1) v = -1.0;
        fclose(f);
    }
    return v;
}

double hs_mem_available(const char **who)
{
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    double mem = pages > 0 && psz > 0 ? (double)pages * (double)psz : 0.0, v = -1.0, used;
    char cg[2][512] = {"/", "/"}, path[640]; /* (v1, v2) the group's paths */
    int k;
    struct rlimit rl;
    FILE *f;
    *who = "this machine has";
    /* the cgroup's limit less what the cgroup uses: v2 (/proc/self/cgroup "0::/path", memory.max
     * and memory.current) or v1 (the "memory" controller's path, memory.limit_in_bytes and
     * memory.usage_in_bytes; no limit is about 2^63); the group's own files, else the root's */
    if ((f = fopen("/proc/self/cgroup", "r"))) {
        char line[600];
        while (fgets(line, sizeof line, f)) {
            char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
            int v2 = c1 && c1 == line + 1 && line[0] == '0' && c2 == c1 + 1;
            if (c2 && (v2 || !strncmp(c1 + 1, "memory:", 7) || strstr(c1, ",memory:")))
                snprintf(cg[v2], sizeof cg[v2], "%.*s", (int)strcspn(c2 + 1, "\n"), c2 + 1);
        }
        fclose(f);
    }
    for (k = 0; k < 4 && v < 0.0; ++k) {
        static const char *const fmt[2][2] = {{"/sys/fs/cgroup/memory%s/memory.limit_in_bytes",
                                               "/sys/fs/cgroup/memory%s/memory.usage_in_bytes"},
                                              {"/sys/fs/cgroup%s/memory.max", "/sys/fs/cgroup%s/memory.current"}};
        int ver = 1 - k / 2; /* v2 first */
        const char *g = k % 2 || !strcmp(cg[ver], "/") ? "" : cg[ver];
        snprintf(path, sizeof path, fmt[ver][0], g);
        if ((v = read_bytes(path)) < 0.0) continue;
        snprintf(path, sizeof path, fmt[ver][1], g);
        used = read_bytes(path);
        if (v < 1e18 && used >= 0.0) v = v > used ? v - used : 0.0;
    }
    if (v > 0.0 && v < 1e18 && (mem <= 0.0 || v < mem)) {
        mem = v;
        *who = "this process's cgroup allows (its memory limit)";
    }
    /* the address-space limit (ulimit -v) less what the process has mapped (/proc/self/statm) */
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        double lim = (double)rl.rlim_cur;
        used = read_bytes("/proc/self/statm");
        if (used > 0.0 && psz > 0) lim = lim > used * (double)psz ? lim - used * (double)psz : 0.0;
        if (mem <= 0.0 || lim < mem) {
            mem = lim;
            *who = "this process may still map (ulimit -v)";
        }
    }
    return mem;
}

const char *hs_fmt_bytes(double b, char *buf, size_t n)
{
    static const char *const unit[] = {"bytes", "KB", "MB", "GB", "TB", "PB", "EB"};
    int k = 0;
    while (b >= 1000.0 && k < 6) {
        b /= 1000.0;
        ++k;
    }
    if (k == 0)
        snprintf(buf, n, "%.0f %s", b, unit[k]);
    else
        snprintf(buf, n, "%.3g %s", b, unit[k]);
    return buf;
}
