/* hs/model.h -- the model of the public API: hs_model, the immutable block shared by every
 * instance of a run, and hs_model_derive. The physics owns its definition
 * (kernels/hs_model.h); this header exposes it. */
#ifndef HS_PUBLIC_MODEL_H
#define HS_PUBLIC_MODEL_H

#include "../../kernels/hs_model.h"
#include "../../kernels/hs_model_derive.h"

#endif
