/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-card-picker.c: which cards the memory chart draws a capacity line for. The estimate keeps
 * the choice ("chart-gpus"), so profiles and the saved window state keep it too; this widget only
 * shows it and passes the user's ticks on. */
#define G_LOG_DOMAIN "vc-card-picker"

#include "config.h"

#include "vc-card-picker-private.h"

struct _VcCardPicker
{
  GtkWidget parent_instance;

  VcEstimate *estimate;
  GtkWidget *box;
  GPtrArray *checks;            /* one per GPU, by GPU index */
  gboolean populated;           /* the check boxes are made: see vc_card_picker_populate() */
  gboolean syncing;
};

G_DEFINE_FINAL_TYPE (VcCardPicker, vc_card_picker, GTK_TYPE_WIDGET)

static void
sync_checks (VcCardPicker *self)
{
  g_autoptr(GArray) chosen = NULL;

  if (!self->populated)
    return;
  chosen = vc_estimate_get_chart_gpu_indices (self->estimate);
  self->syncing = TRUE;
  for (guint i = 0; i < self->checks->len; i++)
    {
      gboolean on = FALSE;

      for (guint k = 0; k < chosen->len; k++)
        on |= g_array_index (chosen, guint, k) == i;
      gtk_check_button_set_active (g_ptr_array_index (self->checks, i), on);
    }
  self->syncing = FALSE;
}

static void
toggled (GtkCheckButton *check,
         VcCardPicker   *self)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  if (self->syncing)
    return;
  /* in the order of the list, which is the order of the lines' labels */
  for (guint i = 0; i < self->checks->len; i++)
    if (gtk_check_button_get_active (g_ptr_array_index (self->checks, i)))
      g_string_append_printf (text, "%s%s", text->len ? ";" : "",
                              vc_estimate_get_gpu_key (self->estimate, i));
  if (!vc_estimate_set_chart_gpus (self->estimate, text->str, &error))
    g_warning ("%s", error->message);
}

static void
rebuild (VcCardPicker *self)
{
  GtkWidget *child;
  guint n;

  if (!self->populated)
    return;
  n = vc_estimate_get_n_gpus (self->estimate);
  while ((child = gtk_widget_get_first_child (self->box)) != NULL)
    gtk_box_remove (GTK_BOX (self->box), child);
  g_ptr_array_set_size (self->checks, 0);
  for (guint i = 0; i < n; i++)
    {
      GtkWidget *check = gtk_check_button_new_with_label (vc_estimate_get_gpu (self->estimate, i)->name);

      g_signal_connect (check, "toggled", G_CALLBACK (toggled), self);
      gtk_box_append (GTK_BOX (self->box), check);
      g_ptr_array_add (self->checks, check);
    }
  sync_checks (self);
}

void
vc_card_picker_set_estimate (VcCardPicker *self,
                             VcEstimate   *estimate)
{
  g_return_if_fail (VC_IS_CARD_PICKER (self));
  g_return_if_fail (VC_IS_ESTIMATE (estimate));
  g_return_if_fail (self->estimate == NULL);

  self->estimate = g_object_ref (estimate);
  g_signal_connect_object (estimate, "notify::custom-gpus", G_CALLBACK (rebuild), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::chart-gpus", G_CALLBACK (sync_checks), self, G_CONNECT_SWAPPED);
}

/**
 * vc_card_picker_populate:
 *
 * Makes the check boxes, one per GPU, once the estimate is set. They are in a popover, never
 * in the window's first frame: the results view makes them after it.
 */
void
vc_card_picker_populate (VcCardPicker *self)
{
  g_return_if_fail (VC_IS_CARD_PICKER (self));
  if (self->populated || self->estimate == NULL)
    return;
  self->populated = TRUE;
  rebuild (self);
}

/* The check box of GPU `gpu_index`, for tests. */
GtkWidget *
vc_card_picker_get_check (VcCardPicker *self,
                          guint         gpu_index)
{
  g_return_val_if_fail (VC_IS_CARD_PICKER (self), NULL);
  vc_card_picker_populate (self);
  g_return_val_if_fail (gpu_index < self->checks->len, NULL);
  return g_ptr_array_index (self->checks, gpu_index);
}

static void
vc_card_picker_dispose (GObject *object)
{
  VcCardPicker *self = VC_CARD_PICKER (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_pointer (&self->checks, g_ptr_array_unref);
  g_clear_object (&self->estimate);
  G_OBJECT_CLASS (vc_card_picker_parent_class)->dispose (object);
}

static void
vc_card_picker_class_init (VcCardPickerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = vc_card_picker_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
vc_card_picker_init (VcCardPicker *self)
{
  self->checks = g_ptr_array_new ();
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
}
