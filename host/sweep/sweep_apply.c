/* sweep_apply.c -- what a sweep file changes in its model before a run: the end time, step
 * and integrator settings it gives (hs_sweep_apply_simulation), and which model members its
 * parameters override per instance (hs_sweep_overrides); include/hs/run.h. */
#include <math.h>
#include <string.h>

#include "hs/run.h"
#include "model/model_validate.h"
#include "model/params.h"

void hs_sweep_overrides(const hs_sweep *sw, const hs_model_desc *md, hs_override_spec *ov)
{
    int j;
    memset(ov, 0, sizeof *ov);
    ov->n = sw->nparam;
    for (j = 0; j < sw->nparam; ++j) {
        const hs_param *p = &md->param[sw->param[j].index];
        ov->offset[j] = (unsigned long)p->offset;
        ov->is_int[j] = p->type == HS_PARAM_ENUM;
    }
}

int hs_sweep_apply_simulation(const hs_sweep *sw, hs_model_desc *md, hs_error *err)
{
    int rc, j;
    /* a swept cosim.h_hyd (values that divide dt: the loader checked them) stands in for the
     * model's, which need not divide the sweep's dt */
    for (j = 0; j < sw->nparam; ++j)
        if (!strcmp(sw->param[j].name, "cosim.h_hyd") && sw->param[j].nvalues > 0)
            md->model.cosim_h_hyd = sw->param[j].values[0];
    rc = hs_model_set_time(md, sw->t_end, sw->dt, err);
    if (rc) return rc;
    if (sw->newton >= 0) md->model.newton = sw->newton;
    if (sw->formulation >= 0) md->model.formulation = sw->formulation;
    if (sw->step >= 0) md->model.step = sw->step;
    if (sw->integ_method >= 0) md->model.method = sw->integ_method;
    if (!isnan(sw->rtol)) md->model.rtol = sw->rtol;
    if (sw->coupling >= 0) md->model.coupling = sw->coupling;
    /* the combination against the model's rules (double_step refuses nonholonomic cuts,
     * esdirk needs adaptive steps and the penalty formulation, cosim needs cylinders); the
     * loader checked it too */
    if (sw->formulation >= 0 || sw->step >= 0 || sw->integ_method >= 0 || !isnan(sw->rtol) || sw->coupling >= 0)
        rc = hs_model_validate(md, err);
    return rc;
}
