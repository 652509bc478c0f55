/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-error.c: see vc-error.h. */
#include "config.h"

#include "vc-error.h"

G_DEFINE_QUARK (vc-error-quark, vc_error)
