/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-formula.h: the formula behind each figure of the breakdown, with the values it used, as
 * text for people: the window's tooltips and vramcalc --explain. Formatted when asked for,
 * never by the estimate itself. */
#pragma once

#include "vc-estimate.h"

G_BEGIN_DECLS

char *vc_formula_describe (VcEstimate  *estimate,
                           guint        scenario_index,
                           VcComponent  component,
                           VcUnit       unit);

G_END_DECLS
