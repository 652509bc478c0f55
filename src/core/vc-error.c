/* vc-error.c: see vc-error.h. */
#include "config.h"

#include "vc-error.h"

G_DEFINE_QUARK (vc-error-quark, vc_error)
