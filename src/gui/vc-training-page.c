/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-training-page.c: the Training tab: the model, the fine-tuning method and its settings,
 * and the workload. */
#define G_LOG_DOMAIN "vc-training-page"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-drop-down.h"
#include "vc-enums.h"
#include "vc-a11y.h"
#include "vc-compat.h"
#include "vc-grid-row.h"
#include "vc-input-bind.h"
#include "vc-method-note.h"
#include "vc-model-section.h"
#include "vc-page-choices.h"
#include "vc-training-page.h"

struct _VcTrainingPage
{
  GtkWidget parent_instance;

  VcEstimate *estimate;
  GtkWidget *target_buttons[7];
  gboolean syncing_targets;

  GtkWidget *box;
  VcModelSection *model_section;
  GtkGrid *finetune_grid;
  GtkGrid *workload_grid;
  VcDropDown *finetune;
  VcDropDown *training_precision;
  GtkSpinButton *lora_rank;
  GtkSpinButton *lora_percent;
  GtkBox *lora_targets;
  VcDropDown *optimizer;
  VcDropDown *optimizer_precision;
  GtkSwitch *mixed_precision;
  VcDropDown *checkpointing;
  VcDropDown *loss;
  GtkLabel *effective_loss;
  VcDropDown *optimizer_impl;
  GtkLabel *effective_optimizer_impl;
  GtkLabel *method_note;
  GtkSwitch *train_embeddings;
  GtkSwitch *compile;
  GtkSwitch *expandable_segments;
  GtkSwitch *optimizer_in_backward;
  GtkSwitch *packing;
  GtkSpinButton *checkpoint_every;
  VcDropDown *trainer;
  GtkSpinButton *batch;
  GtkSpinButton *seq;
  GtkSwitch *flash_attention;
  GtkSpinButton *overhead_gb;
  GtkSpinButton *mfu;
  GtkGrid *layout_grid;
  GtkSpinButton *dp;
  VcDropDown *sharding;
  VcDropDown *offload;
  GtkSpinButton *grad_accum;
  GtkSpinButton *gpus_per_node;
  GtkSpinButton *cp;
};

G_DEFINE_FINAL_TYPE (VcTrainingPage, vc_training_page, GTK_TYPE_WIDGET)

static const VcChoice finetune_choices[] = {
  { VC_FINETUNE_FULL, N_("Full fine-tuning") },
  { VC_FINETUNE_LORA, N_("LoRA") },
  { VC_FINETUNE_QLORA_8BIT, N_("QLoRA, 8-bit base") },
  { VC_FINETUNE_QLORA_4BIT, N_("QLoRA, 4-bit base") },
};

static const VcChoice optimizer_choices[] = {
  { VC_OPTIMIZER_ADAMW, N_("AdamW") },
  { VC_OPTIMIZER_ADAM, N_("Adam") },
  { VC_OPTIMIZER_SGD, N_("SGD") },
  { VC_OPTIMIZER_SGD_MOMENTUM, N_("SGD with momentum") },
  { VC_OPTIMIZER_RMSPROP, N_("RMSprop") },
  { VC_OPTIMIZER_ADAMW_8BIT, N_("AdamW 8-bit") },
  { VC_OPTIMIZER_PAGED_ADAMW_8BIT, N_("Paged AdamW 8-bit") },
};

static const VcChoice state_precision_choices[] = {
  { VC_STATE_PRECISION_FP32, N_("32-bit float (fp32)") },
  { VC_STATE_PRECISION_BF16, N_("16-bit bfloat (bf16)") },
};

static const VcChoice checkpointing_choices[] = {
  { VC_CHECKPOINTING_NONE, N_("None") },
  { VC_CHECKPOINTING_SQRT, N_("Every √L layers") },
  { VC_CHECKPOINTING_FULL, N_("Every layer") },
  { VC_CHECKPOINTING_SELECTIVE, N_("Selective, per operator") },
  { VC_CHECKPOINTING_SELECTIVE_LAYERS, N_("Selective, every N layers") },
};

/* framework names stay as their projects write them */
static const VcChoice trainer_choices[] = {
  { VC_TRAINER_GENERIC, N_("Generic") },
  { VC_TRAINER_HF, "Hugging Face Trainer" },
  { VC_TRAINER_TRL, "TRL" },
  { VC_TRAINER_AXOLOTL, "Axolotl" },
  { VC_TRAINER_TORCHTUNE, "torchtune" },
  { VC_TRAINER_TORCHTITAN, "torchtitan" },
  { VC_TRAINER_LLAMAFACTORY, "LLaMA-Factory" },
  { VC_TRAINER_UNSLOTH, "Unsloth" },
};

static const VcChoice loss_choices[] = {
  { VC_LOSS_FULL, N_("Full logits") },
  { VC_LOSS_CHUNKED, N_("Chunked") },
  { VC_LOSS_FUSED, N_("Fused with the head (Liger)") },
  { VC_LOSS_CCE, N_("Cut cross-entropy") },
  { VC_LOSS_AUTO, N_("The trainer’s default") },
};

static const VcChoice optimizer_impl_choices[] = {
  { VC_OPTIMIZER_IMPL_AUTO, N_("The trainer’s default") },
  { VC_OPTIMIZER_IMPL_FOREACH, N_("foreach (one state-sized temporary)") },
  { VC_OPTIMIZER_IMPL_FUSED, N_("fused (no temporary)") },
};

static const VcChoice sharding_choices[] = {
  { VC_SHARDING_NONE, N_("None (DDP)") },
  { VC_SHARDING_ZERO_1, N_("ZeRO-1: optimizer state") },
  { VC_SHARDING_ZERO_2, N_("ZeRO-2: and gradients") },
  { VC_SHARDING_ZERO_3, N_("ZeRO-3: and parameters") },
  { VC_SHARDING_FSDP_GRAD_OP, N_("FSDP SHARD_GRAD_OP") },
  { VC_SHARDING_FSDP_FULL, N_("FSDP FULL_SHARD") },
  { VC_SHARDING_FSDP_HYBRID, N_("FSDP HYBRID_SHARD (inside a node)") },
};

static const VcChoice offload_choices[] = {
  { VC_OFFLOAD_NONE, N_("None") },
  { VC_OFFLOAD_OPTIMIZER, N_("Optimizer state") },
  { VC_OFFLOAD_OPTIMIZER_PARAMS, N_("Optimizer state and parameters") },
};

static const struct { VcLoraTargets flag; const char *label; } target_labels[] = {
  { VC_LORA_TARGET_Q, "q" },
  { VC_LORA_TARGET_K, "k" },
  { VC_LORA_TARGET_V, "v" },
  { VC_LORA_TARGET_O, "o" },
  { VC_LORA_TARGET_GATE, "gate" },
  { VC_LORA_TARGET_UP, "up" },
  { VC_LORA_TARGET_DOWN, "down" },
};

static void
update_applicable (VcTrainingPage *self)
{
  const VcInputs *in = vc_estimate_get_inputs (self->estimate);
  gboolean arch = in->method == VC_METHOD_ARCHITECTURE;
  gboolean adapters = in->finetune != VC_FINETUNE_FULL;
  gboolean stateful = in->optimizer != VC_OPTIMIZER_SGD && in->optimizer != VC_OPTIMIZER_ADAMW_8BIT &&
                      in->optimizer != VC_OPTIMIZER_PAGED_ADAMW_8BIT;

  /* the architecture method counts adapters from their rank; the rule of thumb takes a share */
  gtk_widget_set_sensitive (GTK_WIDGET (self->lora_rank), arch && adapters);
  gtk_widget_set_sensitive (GTK_WIDGET (self->lora_targets), arch && adapters);
  gtk_widget_set_sensitive (GTK_WIDGET (self->lora_percent), !arch && adapters);
  /* no state, or 8-bit state: the precision of the state means nothing then */
  vc_grid_row_set_visible (GTK_WIDGET (self->optimizer_precision), stateful);
  /* the rule of thumb has no attention to fuse */
  vc_grid_row_set_visible (GTK_WIDGET (self->flash_attention), arch);
  gtk_widget_set_sensitive (GTK_WIDGET (self->loss), arch);
  /* the step's peak is a phase of the architecture's */
  gtk_widget_set_sensitive (GTK_WIDGET (self->optimizer_impl), arch);
  /* the embedding table only counts as its own trainable block for adapters on an architecture */
  gtk_widget_set_sensitive (GTK_WIDGET (self->train_embeddings), arch && adapters);
  /* the rule of thumb keeps no activations of operators to fuse */
  gtk_widget_set_sensitive (GTK_WIDGET (self->compile), arch);
  /* the allocator is replayed on the architecture's tensors */
  gtk_widget_set_sensitive (GTK_WIDGET (self->expandable_segments), arch);
  /* which gradient is the largest needs the architecture's tensors */
  gtk_widget_set_sensitive (GTK_WIDGET (self->optimizer_in_backward), arch);
  /* the layer count of torchtitan's selective option, shown with it */
  vc_grid_row_set_visible (GTK_WIDGET (self->checkpoint_every),
                           in->checkpointing == VC_CHECKPOINTING_SELECTIVE_LAYERS);
  /* ring attention exchanges the architecture's keys and values */
  gtk_widget_set_sensitive (GTK_WIDGET (self->cp), arch);
  /* more GPUs shard nothing without ZeRO or FSDP; the node size matters to HSDP only */
  gtk_widget_set_sensitive (GTK_WIDGET (self->offload), in->layout.sharding != VC_SHARDING_NONE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->gpus_per_node), in->layout.sharding == VC_SHARDING_FSDP_HYBRID);
}

/* The inputs the estimate by parameter count has no place for (its activations are a share of
 * the weights: vramcalc's note names them too), greyed or hidden under that method; the
 * adapters' own only with adapters. Checkpointing is not among them: the rule of thumb scales
 * its activations by it. */
static const struct { const char *property; gboolean adapters; } unused_by_count[] = {
  { "lora-rank", TRUE },
  { "lora-targets", TRUE },
  { "train-embeddings", TRUE },
  { "loss", FALSE },
  { "optimizer-impl", FALSE },
  { "flash-attention", FALSE },
  { "compile", FALSE },
  { "expandable-segments", FALSE },
};

/* A value set before switching to the estimate by parameter count stays in the estimate (and in
 * a saved profile) but is not used: said under the method, naming each */
static void
update_method_note (VcTrainingPage *self)
{
  const char *properties[G_N_ELEMENTS (unused_by_count)];
  guint n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (unused_by_count); i++)
    if (!unused_by_count[i].adapters || vc_estimate_get_inputs (self->estimate)->finetune != VC_FINETUNE_FULL)
      properties[n++] = unused_by_count[i].property;
  vc_method_note_update (self->method_note, self->estimate, GTK_WIDGET (self), VC_TYPE_TRAINING_PAGE,
                         properties, n);
}

/* the loss the estimate counts, the trainer's default resolved */
static void
update_effective_loss (VcTrainingPage *self)
{
  VcLoss loss = vc_trainer_loss (vc_estimate_get_inputs (self->estimate));

  for (gsize i = 0; i < G_N_ELEMENTS (loss_choices); i++)
    if (loss_choices[i].value == (int) loss)
      {
        g_autofree char *text = g_strdup_printf (_("Counted: %s"), _(loss_choices[i].label));
        gtk_label_set_text (self->effective_loss, text);
      }
}

/* the optimizer step the estimate counts (vc_estimator_step_temporary()), the trainer's default
 * resolved: torch.optim's implementation, or what steps without one */
static void
update_effective_optimizer_impl (VcTrainingPage *self)
{
  const VcInputs *in = vc_estimate_get_inputs (self->estimate);
  VcOptimizerImpl impl = vc_trainer_optimizer_impl (in);
  g_autofree char *text = NULL;

  if (in->optimizer == VC_OPTIMIZER_ADAMW_8BIT || in->optimizer == VC_OPTIMIZER_PAGED_ADAMW_8BIT)
    text = g_strdup (_("Counted: bitsandbytes’ own 8-bit step (no temporary)"));
  else if (in->optimizer_in_backward)
    text = g_strdup (_("Counted: one parameter’s step at a time, in the backward pass (no temporary)"));
  else if (impl == VC_OPTIMIZER_IMPL_FOREACH &&
           (in->optimizer == VC_OPTIMIZER_SGD || in->optimizer == VC_OPTIMIZER_SGD_MOMENTUM))
    text = g_strdup (_("Counted: foreach, in place (no temporary)"));
  else
    for (gsize i = 0; i < G_N_ELEMENTS (optimizer_impl_choices); i++)
      if (optimizer_impl_choices[i].value == (int) impl)
        text = g_strdup_printf (_("Counted: %s"), _(optimizer_impl_choices[i].label));
  gtk_label_set_text (self->effective_optimizer_impl, text);
}

static void
sync_targets (VcTrainingPage *self)
{
  const VcInputs *in = vc_estimate_get_inputs (self->estimate);

  /* each button set would otherwise write a half-updated set back to the model */
  self->syncing_targets = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (target_labels); i++)
    gtk_check_button_set_active (GTK_CHECK_BUTTON (self->target_buttons[i]),
                                 (in->lora_targets & target_labels[i].flag) != 0);
  self->syncing_targets = FALSE;
}

static void
target_toggled (GtkCheckButton *button,
                VcTrainingPage *self)
{
  guint flags = 0;

  if (self->syncing_targets)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (target_labels); i++)
    if (gtk_check_button_get_active (GTK_CHECK_BUTTON (self->target_buttons[i])))
      flags |= target_labels[i].flag;
  /* adapters need at least one target: the last one cannot be unticked */
  if (flags == 0)
    {
      sync_targets (self);
      return;
    }
  g_object_set (self->estimate, "lora-targets", flags, NULL);
}

static void
build_targets (VcTrainingPage *self)
{
  GtkWidget *line = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (target_labels); i++)
    {
      g_autofree char *tooltip = g_strdup_printf (_("Adapters on the %s projection"), target_labels[i].label);
      GtkWidget *button = gtk_check_button_new_with_label (target_labels[i].label);

      /* q, k, v, o, then gate, up, down */
      if (line == NULL || target_labels[i].flag == VC_LORA_TARGET_GATE)
        {
          line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
          gtk_box_append (self->lora_targets, line);
        }
      vc_widget_set_tooltip_text (button, tooltip);
      gtk_box_append (GTK_BOX (line), button);
      self->target_buttons[i] = button;
    }
  sync_targets (self);
  for (guint i = 0; i < G_N_ELEMENTS (target_labels); i++)
    g_signal_connect (self->target_buttons[i], "toggled", G_CALLBACK (target_toggled), self);
  g_signal_connect_object (self->estimate, "notify::lora-targets", G_CALLBACK (sync_targets),
                           self, G_CONNECT_SWAPPED);
}

/* the "LoRA targets" label activates the first check button */
static void
point_targets_label (VcTrainingPage *self)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->finetune_grid));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LABEL (child) &&
        gtk_label_get_mnemonic_widget (GTK_LABEL (child)) == GTK_WIDGET (self->lora_targets))
      gtk_label_set_mnemonic_widget (GTK_LABEL (child), self->target_buttons[0]);
}

void
vc_training_page_set_estimate (VcTrainingPage *self,
                               VcEstimate     *estimate)
{
  g_return_if_fail (VC_IS_TRAINING_PAGE (self));
  g_return_if_fail (VC_IS_ESTIMATE (estimate));
  g_return_if_fail (self->estimate == NULL);

  self->estimate = g_object_ref (estimate);
  vc_model_section_set_estimate (self->model_section, estimate);
  vc_bind_choices (self->finetune, estimate, "finetune", finetune_choices, G_N_ELEMENTS (finetune_choices));
  vc_bind_choices (self->training_precision, estimate, "training-precision",
                   vc_training_precision_choices, vc_n_training_precision_choices);
  vc_bind_spin (self->lora_rank, estimate, "lora-rank", 1, 0);
  vc_bind_spin (self->lora_percent, estimate, "lora-percent", 0.1, 3);
  vc_bind_choices (self->optimizer, estimate, "optimizer", optimizer_choices, G_N_ELEMENTS (optimizer_choices));
  vc_bind_choices (self->optimizer_precision, estimate, "optimizer-precision",
                   state_precision_choices, G_N_ELEMENTS (state_precision_choices));
  vc_bind_active (GTK_WIDGET (self->mixed_precision), estimate, "mixed-precision");
  vc_bind_choices (self->checkpointing, estimate, "checkpointing",
                   checkpointing_choices, G_N_ELEMENTS (checkpointing_choices));
  vc_bind_choices (self->loss, estimate, "loss", loss_choices, G_N_ELEMENTS (loss_choices));
  vc_bind_choices (self->optimizer_impl, estimate, "optimizer-impl", optimizer_impl_choices,
                   G_N_ELEMENTS (optimizer_impl_choices));
  vc_bind_active (GTK_WIDGET (self->train_embeddings), estimate, "train-embeddings");
  vc_bind_active (GTK_WIDGET (self->compile), estimate, "compile");
  vc_bind_active (GTK_WIDGET (self->expandable_segments), estimate, "expandable-segments");
  vc_bind_active (GTK_WIDGET (self->optimizer_in_backward), estimate, "optimizer-in-backward");
  vc_bind_active (GTK_WIDGET (self->packing), estimate, "packing");
  vc_bind_spin (self->checkpoint_every, estimate, "checkpoint-every", 1, 0);
  vc_bind_choices (self->trainer, estimate, "trainer", trainer_choices, G_N_ELEMENTS (trainer_choices));
  vc_bind_spin (self->batch, estimate, "batch", 1, 0);
  vc_bind_spin (self->seq, estimate, "seq", 256, 0);
  vc_bind_active (GTK_WIDGET (self->flash_attention), estimate, "flash-attention");
  vc_bind_spin_with_default (self->overhead_gb, estimate, "overhead-gb", 0.1, 1);
  vc_bind_spin (self->mfu, estimate, "mfu", 0.01, 2);
  build_targets (self);
  point_targets_label (self);

  g_signal_connect_object (estimate, "notify::method", G_CALLBACK (update_applicable), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::loss", G_CALLBACK (update_effective_loss), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::trainer", G_CALLBACK (update_effective_loss), self, G_CONNECT_SWAPPED);
  update_effective_loss (self);
  g_signal_connect_object (estimate, "notify::optimizer-impl", G_CALLBACK (update_effective_optimizer_impl),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::trainer", G_CALLBACK (update_effective_optimizer_impl),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::optimizer", G_CALLBACK (update_effective_optimizer_impl),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::optimizer-in-backward", G_CALLBACK (update_effective_optimizer_impl),
                           self, G_CONNECT_SWAPPED);
  update_effective_optimizer_impl (self);
  g_signal_connect_object (estimate, "notify::finetune", G_CALLBACK (update_applicable), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::optimizer", G_CALLBACK (update_applicable), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::sharding", G_CALLBACK (update_applicable), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::checkpointing", G_CALLBACK (update_applicable), self, G_CONNECT_SWAPPED);
  vc_bind_spin (self->dp, estimate, "dp", 1, 0);
  vc_bind_choices (self->sharding, estimate, "sharding", sharding_choices, G_N_ELEMENTS (sharding_choices));
  vc_bind_choices (self->offload, estimate, "offload", offload_choices, G_N_ELEMENTS (offload_choices));
  vc_bind_spin (self->grad_accum, estimate, "grad-accum", 1, 0);
  vc_bind_spin (self->gpus_per_node, estimate, "gpus-per-node", 1, 0);
  vc_bind_spin (self->cp, estimate, "cp", 1, 0);
  update_applicable (self);
  g_signal_connect_object (estimate, "notify::method", G_CALLBACK (update_method_note), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::finetune", G_CALLBACK (update_method_note), self, G_CONNECT_SWAPPED);
  for (guint i = 0; i < G_N_ELEMENTS (unused_by_count); i++)
    {
      g_autofree char *signal = g_strconcat ("notify::", unused_by_count[i].property, NULL);

      g_signal_connect_object (estimate, signal, G_CALLBACK (update_method_note), self, G_CONNECT_SWAPPED);
    }
  update_method_note (self);
}

GtkWidget *
vc_training_page_get_model_section (VcTrainingPage *self)
{
  g_return_val_if_fail (VC_IS_TRAINING_PAGE (self), NULL);
  return GTK_WIDGET (self->model_section);
}

static void
vc_training_page_dispose (GObject *object)
{
  VcTrainingPage *self = VC_TRAINING_PAGE (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), VC_TYPE_TRAINING_PAGE);
  g_clear_object (&self->estimate);
  G_OBJECT_CLASS (vc_training_page_parent_class)->dispose (object);
}

static void
vc_training_page_class_init (VcTrainingPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = vc_training_page_dispose;

  g_type_ensure (VC_TYPE_MODEL_SECTION);
  g_type_ensure (VC_TYPE_DROP_DOWN);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/vramcalc/VramCalculator/vc-training-page.ui");
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, box);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, model_section);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, workload_grid);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, finetune_grid);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, finetune);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, training_precision);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, lora_rank);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, lora_percent);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, lora_targets);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, optimizer);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, optimizer_precision);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, mixed_precision);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, checkpointing);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, loss);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, effective_loss);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, optimizer_impl);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, effective_optimizer_impl);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, method_note);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, train_embeddings);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, compile);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, expandable_segments);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, optimizer_in_backward);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, packing);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, checkpoint_every);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, trainer);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, batch);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, seq);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, flash_attention);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, overhead_gb);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, mfu);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, layout_grid);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, dp);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, sharding);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, offload);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, grad_accum);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, gpus_per_node);
  gtk_widget_class_bind_template_child (widget_class, VcTrainingPage, cp);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

/* Set after the template is built, not in the .ui: see vc_widget_set_tooltip_text(). An input
 * that vramcalc sets too has none here: its tooltip is its property's blurb, vramcalc's help. */
static const VcTooltip tooltips[] = {
  { "train_embeddings", N_("The token embeddings train fully beside the adapters (PEFT modules_to_save); for LoRA and QLoRA with the architecture method") },
  { "compile", N_("Training compiled with torch.compile: fused operations keep fewer activations") },
  { "expandable_segments", N_("PyTorch's allocator grows one segment per pool (PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True): less memory cached beside the tensors") },
  { "optimizer_in_backward", N_("Each parameter’s optimizer step runs as soon as its gradient is ready, which is then freed (torchtune’s optimizer_in_bwd): one gradient alive instead of all; one GPU, no gradient accumulation") },
};

static void
vc_training_page_init (VcTrainingPage *self)
{
  g_autoptr(GtkSizeGroup) labels = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);

  gtk_widget_init_template (GTK_WIDGET (self));
  vc_widget_set_template_tooltips (GTK_WIDGET (self), VC_TYPE_TRAINING_PAGE, tooltips, G_N_ELEMENTS (tooltips));
  vc_a11y_label_mnemonics (GTK_WIDGET (self));
  vc_model_section_align_labels (self->model_section, labels);
  vc_size_group_add_grid_labels (labels, self->finetune_grid);
  vc_size_group_add_grid_labels (labels, self->workload_grid);
  vc_size_group_add_grid_labels (labels, self->layout_grid);
}
