/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-inference-page.c: the Inference tab: the model, the weight and KV cache precisions and the
 * serving workload. */
#define G_LOG_DOMAIN "vc-inference-page"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-inference-page.h"
#include "vc-a11y.h"
#include "vc-grid-row.h"
#include "vc-input-bind.h"
#include "vc-model-section.h"
#include "vc-page-choices.h"

struct _VcInferencePage
{
  GtkWidget parent_instance;

  VcEstimate *estimate;

  GtkWidget *box;
  VcModelSection *model_section;
  GtkGrid *workload_grid;
  GtkDropDown *precision;
  GtkDropDown *kv_precision;
  GtkSpinButton *batch;
  GtkSpinButton *seq;
  GtkSpinButton *concurrency;
  GtkSwitch *flash_attention;
  GtkSpinButton *overhead_gb;
};

G_DEFINE_FINAL_TYPE (VcInferencePage, vc_inference_page, GTK_TYPE_WIDGET)

static void
update_applicable (VcInferencePage *self)
{
  const VcInputs *in = vc_estimate_get_inputs (self->estimate);

  /* the rule of thumb has no attention to fuse */
  vc_grid_row_set_visible (GTK_WIDGET (self->flash_attention), in->method == VC_METHOD_ARCHITECTURE);
}

void
vc_inference_page_set_estimate (VcInferencePage *self,
                                VcEstimate      *estimate)
{
  g_return_if_fail (VC_IS_INFERENCE_PAGE (self));
  g_return_if_fail (VC_IS_ESTIMATE (estimate));
  g_return_if_fail (self->estimate == NULL);

  self->estimate = g_object_ref (estimate);
  vc_model_section_set_estimate (self->model_section, estimate);
  vc_bind_choices (self->precision, estimate, "precision",
                   vc_precision_choices, vc_n_precision_choices);
  vc_bind_choices (self->kv_precision, estimate, "kv-precision",
                   vc_precision_choices, vc_n_precision_choices);
  vc_bind_spin (self->batch, estimate, "batch", 1, 0);
  vc_bind_spin (self->seq, estimate, "seq", 256, 0);
  vc_bind_spin (self->concurrency, estimate, "concurrency", 1, 0);
  vc_bind_active (GTK_WIDGET (self->flash_attention), estimate, "flash-attention");
  vc_bind_spin_with_default (self->overhead_gb, estimate, "overhead-gb", 0.1, 1);

  g_signal_connect_object (estimate, "notify::method", G_CALLBACK (update_applicable), self, G_CONNECT_SWAPPED);
  update_applicable (self);
}

GtkWidget *
vc_inference_page_get_model_section (VcInferencePage *self)
{
  g_return_val_if_fail (VC_IS_INFERENCE_PAGE (self), NULL);
  return GTK_WIDGET (self->model_section);
}

static void
vc_inference_page_dispose (GObject *object)
{
  VcInferencePage *self = VC_INFERENCE_PAGE (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), VC_TYPE_INFERENCE_PAGE);
  g_clear_object (&self->estimate);
  G_OBJECT_CLASS (vc_inference_page_parent_class)->dispose (object);
}

static void
vc_inference_page_class_init (VcInferencePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = vc_inference_page_dispose;

  g_type_ensure (VC_TYPE_MODEL_SECTION);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/vramcalc/VramCalculator/vc-inference-page.ui");
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, box);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, model_section);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, workload_grid);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, precision);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, kv_precision);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, batch);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, seq);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, concurrency);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, flash_attention);
  gtk_widget_class_bind_template_child (widget_class, VcInferencePage, overhead_gb);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
vc_inference_page_init (VcInferencePage *self)
{
  g_autoptr(GtkSizeGroup) labels = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);

  gtk_widget_init_template (GTK_WIDGET (self));
  vc_a11y_label_mnemonics (GTK_WIDGET (self));
  vc_model_section_align_labels (self->model_section, labels);
  vc_size_group_add_grid_labels (labels, self->workload_grid);
}
