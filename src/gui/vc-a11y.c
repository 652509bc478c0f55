/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-a11y.c: accessible names for the controls GTK 4.8 leaves unnamed. A drop-down or a
 * GtkMenuButton puts the focus on a toggle button inside it, which a screen reader announces
 * as "GtkToggleButton" although a label names the drop-down; an expander focuses itself
 * without its title as name. These functions pass the name on to what takes the focus. */
#define G_LOG_DOMAIN "vc-a11y"

#include "config.h"

#include "vc-a11y.h"

static void
label_focusables (GtkWidget *widget,
                  GtkWidget *label)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      /* a popover's contents are named by their own labels */
      if (GTK_IS_POPOVER (child))
        continue;
      if (GTK_IS_BUTTON (child))
        gtk_accessible_update_relation (GTK_ACCESSIBLE (child),
                                        GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);
      label_focusables (child, label);
    }
}

/**
 * vc_a11y_labelled_by:
 * @input: a control
 * @label: the label naming it
 *
 * Names @input and the buttons inside it (a drop-down's, a menu button's) after @label.
 */
void
vc_a11y_labelled_by (GtkWidget *input,
                     GtkWidget *label)
{
  g_return_if_fail (GTK_IS_WIDGET (input));
  g_return_if_fail (GTK_IS_WIDGET (label));

  gtk_accessible_update_relation (GTK_ACCESSIBLE (input),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);
  label_focusables (input, label);
}

/**
 * vc_a11y_label_mnemonics:
 * @root: a widget whose descendants to name
 *
 * Every label of @root with a mnemonic widget names that widget and the buttons inside it;
 * every expander is named after its title.
 */
void
vc_a11y_label_mnemonics (GtkWidget *root)
{
  g_return_if_fail (GTK_IS_WIDGET (root));

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_LABEL (child) && gtk_label_get_mnemonic_widget (GTK_LABEL (child)) != NULL)
        vc_a11y_labelled_by (gtk_label_get_mnemonic_widget (GTK_LABEL (child)), child);
      else if (GTK_IS_EXPANDER (child) && gtk_expander_get_label_widget (GTK_EXPANDER (child)) != NULL)
        gtk_accessible_update_relation (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_RELATION_LABELLED_BY,
                                        gtk_expander_get_label_widget (GTK_EXPANDER (child)), NULL, -1);
      vc_a11y_label_mnemonics (child);
    }
}

/**
 * vc_a11y_name:
 * @widget: a control without a visible label (an icon button, a menu button)
 * @name: (transfer none): its name, translated
 *
 * Gives @widget and the buttons inside it @name as accessible label.
 */
void
vc_a11y_name (GtkWidget  *widget,
              const char *name)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_BUTTON (child))
      gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
}

static GtkWidget *
find_label (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_POPOVER (child))
        continue;
      if (GTK_IS_LABEL (child))
        return child;
      if ((found = find_label (child)) != NULL)
        return found;
    }
  return NULL;
}

/**
 * vc_a11y_named_by_own_label:
 * @button: a menu button with a label
 *
 * Names @button and the toggle button inside it after the label it shows. GTK 4.8 names the
 * toggle button after it; newer versions leave the name to be read from the button's
 * contents, which is not set as a name, so that the control is unnamed to some readers.
 */
void
vc_a11y_named_by_own_label (GtkWidget *button)
{
  GtkWidget *label;

  g_return_if_fail (GTK_IS_WIDGET (button));

  label = find_label (button);
  g_return_if_fail (label != NULL);
  vc_a11y_labelled_by (button, label);
}
