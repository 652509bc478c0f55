/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-gpu-editor.c: the user's own GPUs. The estimate's "custom-gpus" text ("NAME=SIZE; …") is
 * the one store: the list is rebuilt from it, and adding or removing a card rewrites it, so the
 * core validates every card the same way as on the command line. */
#define G_LOG_DOMAIN "vc-gpu-editor"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-catalog.h"
#include "vc-compat.h"
#include "vc-enums.h"
#include "vc-error.h"
#include "vc-gpu-editor.h"
#include "vc-local-gpus.h"
#include "vc-text.h"
#include "vc-units.h"

struct _VcGpuEditor
{
  GtkWidget parent_instance;

  VcEstimate *estimate;
  VcUnit unit;                 /* of the capacities shown */

  GtkWidget *box;
  GtkListBox *list;
  GtkLabel *empty;
  GtkEntry *name_entry;
  GtkSpinButton *size_spin;
  GtkLabel *error_label;
  GtkButton *add_button;
  GtkButton *this_computer_button;
};

enum {
  PROP_0,
  PROP_UNIT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (VcGpuEditor, vc_gpu_editor, GTK_TYPE_WIDGET)

/* The cards as typed, one item each, empty items dropped. */
static GPtrArray *
split_items (VcEstimate *estimate)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) items = NULL;
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  g_object_get (estimate, "custom-gpus", &text, NULL);
  items = g_strsplit (text ? text : "", ";", -1);
  for (guint i = 0; items[i] != NULL; i++)
    {
      char *item = g_strstrip (g_strdup (items[i]));

      if (*item != '\0')
        g_ptr_array_add (out, item);
      else
        g_free (item);
    }
  return out;
}

static gboolean
write_items (VcGpuEditor  *self,
             GPtrArray    *items,
             GError      **error)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < items->len; i++)
    g_string_append_printf (text, "%s%s", i ? "; " : "", (const char *) items->pdata[i]);
  return vc_estimate_set_custom_gpus (self->estimate, text->str, error);
}

static void
show_error (VcGpuEditor *self,
            GError      *error)
{
  /* names read from a driver or typed may hold control characters */
  g_autofree char *shown = error ? vc_escape_controls (error->message, TRUE) : NULL;

  gtk_label_set_label (self->error_label, shown ? shown : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), error != NULL);
}

static void
remove_clicked (GtkButton   *button,
                VcGpuEditor *self)
{
  g_autoptr(GError) error = NULL;
  guint position = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "vc-position"));

  if (!vc_gpu_editor_remove (self, position, &error))
    show_error (self, error);
}

static void
rebuild (VcGpuEditor *self)
{
  g_autoptr(GPtrArray) items = split_items (self->estimate);
  GtkWidget *child;
  guint n_catalog;
  VcUnit unit = self->unit;

  vc_gpus_get_all (&n_catalog);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);

  for (guint i = 0; i < items->len; i++)
    {
      const VcGpu *gpu = vc_estimate_get_gpu (self->estimate, n_catalog + i);
      g_autofree char *size = NULL, *tooltip = NULL;
      GtkWidget *row, *name, *capacity, *remove;

      if (gpu == NULL)
        break;
      size = vc_format_size (gpu->capacity_bytes, unit);
      row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
      gtk_widget_set_margin_start (row, 6);
      gtk_widget_set_margin_end (row, 6);
      gtk_widget_set_margin_top (row, 3);
      gtk_widget_set_margin_bottom (row, 3);
      name = gtk_label_new (gpu->name);
      gtk_label_set_xalign (GTK_LABEL (name), 0);
      gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
      gtk_widget_set_hexpand (name, TRUE);
      capacity = gtk_label_new (size);
      gtk_widget_add_css_class (capacity, "numeric");
      gtk_widget_add_css_class (capacity, "dim-label");
      remove = gtk_button_new_from_icon_name ("user-trash-symbolic");
      gtk_widget_add_css_class (remove, "flat");
      /* TRANSLATORS: %s is the name of a GPU the user added */
      tooltip = g_strdup_printf (_("Remove %s"), gpu->name);
      vc_widget_set_tooltip_text (remove, tooltip);
      gtk_accessible_update_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip, -1);
      g_object_set_data (G_OBJECT (remove), "vc-position", GUINT_TO_POINTER (i));
      g_signal_connect (remove, "clicked", G_CALLBACK (remove_clicked), self);
      gtk_box_append (GTK_BOX (row), name);
      gtk_box_append (GTK_BOX (row), capacity);
      gtk_box_append (GTK_BOX (row), remove);
      gtk_list_box_append (self->list, row);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->list), items->len > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->empty), items->len == 0);
}

/**
 * vc_gpu_editor_add:
 * @name: the card's name, shown in the chart
 * @size_gb: its memory in GB (10^9 bytes)
 *
 * Adds a card after the ones already added. On failure (an empty name, a name with “;”, a size
 * out of range) nothing changes and @error says what is accepted.
 */
gboolean
vc_gpu_editor_add (VcGpuEditor  *self,
                   const char   *name,
                   double        size_gb,
                   GError      **error)
{
  g_autoptr(GPtrArray) items = NULL;
  g_autofree char *stripped = NULL;
  char size[G_ASCII_DTOSTR_BUF_SIZE];

  g_return_val_if_fail (VC_IS_GPU_EDITOR (self), FALSE);
  g_return_val_if_fail (self->estimate != NULL, FALSE);

  stripped = g_strstrip (g_strdup (name ? name : ""));
  if (*stripped == '\0')
    {
      g_set_error_literal (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                           _("Give the GPU a name of 1 to 64 characters"));
      return FALSE;
    }
  /* “;” separates cards in the stored text, so a name cannot hold one */
  if (strchr (stripped, ';') != NULL)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("A GPU name cannot contain “;”: “%s”"), stripped);
      return FALSE;
    }
  items = split_items (self->estimate);
  g_ptr_array_add (items, g_strdup_printf ("%s=%sGB", stripped,
                                           g_ascii_formatd (size, sizeof size, "%.6g", size_gb)));
  return write_items (self, items, error);
}

gboolean
vc_gpu_editor_remove (VcGpuEditor  *self,
                      guint         position,
                      GError      **error)
{
  g_autoptr(GPtrArray) items = NULL;

  g_return_val_if_fail (VC_IS_GPU_EDITOR (self), FALSE);
  g_return_val_if_fail (self->estimate != NULL, FALSE);

  items = split_items (self->estimate);
  g_return_val_if_fail (position < items->len, FALSE);
  g_ptr_array_remove_index (items, position);
  return write_items (self, items, error);
}

static void
add_clicked (VcGpuEditor *self)
{
  g_autoptr(GError) error = NULL;

  gtk_spin_button_update (self->size_spin);
  if (!vc_gpu_editor_add (self, gtk_editable_get_text (GTK_EDITABLE (self->name_entry)),
                          gtk_spin_button_get_value (self->size_spin), &error))
    {
      show_error (self, error);
      return;
    }
  show_error (self, NULL);
  gtk_editable_set_text (GTK_EDITABLE (self->name_entry), "");
}

/**
 * vc_gpu_editor_add_local:
 * @gpus: (element-type VcLocalGpu): cards read from this computer
 *
 * Adds the cards after the ones already added, leaving out any already there under the same
 * name and size. Fails with @error when @gpus is empty.
 */
gboolean
vc_gpu_editor_add_local (VcGpuEditor  *self,
                         GPtrArray    *gpus,
                         GError      **error)
{
  g_autofree char *custom = NULL;
  g_autofree char *merged = NULL;
  g_auto(GStrv) notes = NULL;
  g_autofree char *said = NULL;

  g_return_val_if_fail (VC_IS_GPU_EDITOR (self), FALSE);
  g_return_val_if_fail (self->estimate != NULL, FALSE);

  if (gpus->len == 0)
    {
      g_set_error_literal (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                           _("No GPU found on this computer: NVIDIA cards are read through their driver’s "
                             "libnvidia-ml, AMD cards through the amdgpu driver"));
      return FALSE;
    }
  /* the core merges them as --this-computer does; a card is left out with one note each, so
   * as many notes as cards means none could be added */
  g_object_get (self->estimate, "custom-gpus", &custom, NULL);
  merged = vc_local_gpus_merge_custom (custom, gpus, &notes);
  said = g_strjoinv ("\n", notes);
  if (g_strv_length (notes) >= gpus->len)
    {
      g_set_error_literal (error, VC_ERROR, VC_ERROR_INVALID_VALUE, said);
      return FALSE;
    }
  if (!vc_estimate_set_custom_gpus (self->estimate, merged, error))
    return FALSE;
  /* the cards left out, and why; the others are added */
  if (*said != '\0')
    {
      g_autoptr(GError) note = g_error_new_literal (VC_ERROR, VC_ERROR_INVALID_VALUE, said);
      show_error (self, note);
    }
  else
    show_error (self, NULL);
  return TRUE;
}

static void
this_computer_clicked (VcGpuEditor *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) gpus = NULL;

  /* read only on request, and in a Flatpak only with device access */
  if (!vc_local_gpus_allowed ("/.flatpak-info", &error))
    {
      show_error (self, error);
      return;
    }
  gpus = vc_local_gpus_detect_default ();
  if (!vc_gpu_editor_add_local (self, gpus, &error))
    show_error (self, error);
}

void
vc_gpu_editor_set_estimate (VcGpuEditor *self,
                            VcEstimate  *estimate)
{
  g_return_if_fail (VC_IS_GPU_EDITOR (self));
  g_return_if_fail (VC_IS_ESTIMATE (estimate));
  g_return_if_fail (self->estimate == NULL);

  self->estimate = g_object_ref (estimate);
  g_signal_connect_object (estimate, "notify::custom-gpus", G_CALLBACK (rebuild), self, G_CONNECT_SWAPPED);
  rebuild (self);
}

/* the unit of the capacities shown, a view setting */
void
vc_gpu_editor_set_unit (VcGpuEditor *self,
                        VcUnit       unit)
{
  g_return_if_fail (VC_IS_GPU_EDITOR (self));

  if (self->unit == unit)
    return;
  self->unit = unit;
  if (self->estimate != NULL)
    rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNIT]);
}

static void
vc_gpu_editor_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_UNIT:
      g_value_set_enum (value, VC_GPU_EDITOR (object)->unit);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
vc_gpu_editor_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_UNIT:
      vc_gpu_editor_set_unit (VC_GPU_EDITOR (object), g_value_get_enum (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
vc_gpu_editor_dispose (GObject *object)
{
  VcGpuEditor *self = VC_GPU_EDITOR (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), VC_TYPE_GPU_EDITOR);
  g_clear_object (&self->estimate);
  G_OBJECT_CLASS (vc_gpu_editor_parent_class)->dispose (object);
}

static void
vc_gpu_editor_class_init (VcGpuEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = vc_gpu_editor_dispose;
  object_class->get_property = vc_gpu_editor_get_property;
  object_class->set_property = vc_gpu_editor_set_property;

  properties[PROP_UNIT] =
    g_param_spec_enum ("unit", NULL, NULL, VC_TYPE_UNIT, VC_UNIT_GB,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/vramcalc/VramCalculator/vc-gpu-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, VcGpuEditor, box);
  gtk_widget_class_bind_template_child (widget_class, VcGpuEditor, list);
  gtk_widget_class_bind_template_child (widget_class, VcGpuEditor, empty);
  gtk_widget_class_bind_template_child (widget_class, VcGpuEditor, name_entry);
  gtk_widget_class_bind_template_child (widget_class, VcGpuEditor, size_spin);
  gtk_widget_class_bind_template_child (widget_class, VcGpuEditor, error_label);
  gtk_widget_class_bind_template_child (widget_class, VcGpuEditor, add_button);
  gtk_widget_class_bind_template_child (widget_class, VcGpuEditor, this_computer_button);
  gtk_widget_class_bind_template_callback (widget_class, add_clicked);
  gtk_widget_class_bind_template_callback (widget_class, this_computer_clicked);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

/* Set after the template is built, not in the .ui: see vc_widget_set_tooltip_text() */
static const VcTooltip tooltips[] = {
  { "this_computer_button", N_("Reads the GPUs of this computer (NVIDIA through its driver, AMD through the kernel); nothing leaves the machine") },
};

static void
vc_gpu_editor_init (VcGpuEditor *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  vc_widget_set_template_tooltips (GTK_WIDGET (self), VC_TYPE_GPU_EDITOR, tooltips, G_N_ELEMENTS (tooltips));
}
