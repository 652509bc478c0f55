/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-method-note.c: a value set before switching to the estimate by parameter count stays in the
 * estimate (and in a saved profile) but is not used. Both tabs say so under the method, naming
 * each input by its label as the window shows it, as vramcalc's note does. */
#define G_LOG_DOMAIN "vc-method-note"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-method-note.h"

/* The text of the label naming @input in the grid that holds it: the label's mnemonic widget is
 * @input or inside it (the LoRA targets' label points at their first check button). */
static const char *
input_label (GtkWidget *input)
{
  GtkWidget *grid = gtk_widget_get_ancestor (input, GTK_TYPE_GRID);

  g_return_val_if_fail (grid != NULL, "");
  for (GtkWidget *child = gtk_widget_get_first_child (grid);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *target = GTK_IS_LABEL (child) ? gtk_label_get_mnemonic_widget (GTK_LABEL (child)) : NULL;

      if (target != NULL && (target == input || gtk_widget_is_ancestor (target, input)))
        return gtk_label_get_text (GTK_LABEL (child));
    }
  g_return_val_if_reached ("");
}

/**
 * vc_method_note_update:
 * @note: the label under the method
 * @estimate: the estimate the page edits
 * @page: the page, whose template children are named after the properties ("-" as "_")
 * @page_type: the type whose template declares those children
 * @properties: (array length=n_properties): the properties of @estimate the estimate by
 *   parameter count does not use, in the order the page shows their inputs
 * @n_properties: their number
 *
 * Under the estimate by parameter count, names in @note the inputs of @properties whose value
 * is not their default, and hides @note when there are none (or under another method).
 */
void
vc_method_note_update (GtkLabel          *note,
                       VcEstimate        *estimate,
                       GtkWidget         *page,
                       GType              page_type,
                       const char *const *properties,
                       guint              n_properties)
{
  const VcInputs *in;
  g_autoptr(GString) names = g_string_new (NULL);
  g_autofree char *text = NULL;

  g_return_if_fail (GTK_IS_LABEL (note));
  g_return_if_fail (VC_IS_ESTIMATE (estimate));
  g_return_if_fail (GTK_IS_WIDGET (page));

  in = vc_estimate_get_inputs (estimate);
  for (guint i = 0; in->method == VC_METHOD_RULE_OF_THUMB && i < n_properties; i++)
    {
      GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (estimate), properties[i]);
      g_autofree char *id = g_strdelimit (g_strdup (properties[i]), "-", '_');
      GtkWidget *input = GTK_WIDGET (gtk_widget_get_template_child (page, page_type, id));
      g_auto(GValue) value = G_VALUE_INIT;

      g_return_if_fail (pspec != NULL && input != NULL);
      g_value_init (&value, pspec->value_type);
      g_object_get_property (G_OBJECT (estimate), pspec->name, &value);
      if (g_param_value_defaults (pspec, &value))
        continue;
      if (names->len > 0)
        /* TRANSLATORS: between the names of inputs in a list */
        g_string_append (names, _(", "));
      g_string_append (names, input_label (input));
    }
  if (names->len > 0)
    /* TRANSLATORS: the labels of the inputs, separated by commas */
    text = g_strdup_printf (_("Set but not used by the estimate by parameter count: %s. Choose the Architecture "
                              "method to count them."), names->str);
  gtk_label_set_text (note, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (note), text != NULL);
}
