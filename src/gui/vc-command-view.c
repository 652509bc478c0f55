/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-command-view.c: the "Command" area (vc-command-view.h). The command comes from the core
 * (vc_command_build()); this file shows it, follows the estimate's engine, and copies it. */
#define G_LOG_DOMAIN "vc-command-view"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-a11y.h"
#include "vc-command-view.h"
#include "vc-drop-down.h"

struct _VcCommandView
{
  GtkWidget parent_instance;

  VcEstimate *estimate;
  VcCommandRequest request;        /* the model as read from its files, if it was */
  VcCommand *command;              /* NULL: refused */
  gboolean has_own_engine;         /* the estimate's engine, last seen, has a command */
  VcCommandEngine own_engine;

  GtkWidget *box;
  GtkLabel *heading;
  VcDropDown *engine_chooser;
  GtkButton *copy_button;
  GtkLabel *command_text;
  GtkLabel *note;
};

G_DEFINE_FINAL_TYPE (VcCommandView, vc_command_view, GTK_TYPE_WIDGET)

/* The chooser's names, in VcCommandEngine's order */
static const char *
engine_label (VcCommandEngine engine)
{
  switch (engine)
    {
    case VC_COMMAND_LLAMA_CPP: return _("llama.cpp (llama-server)");
    case VC_COMMAND_VLLM: return _("vLLM (vllm serve)");
    case VC_COMMAND_SGLANG: return _("SGLang (launch_server)");
    case VC_COMMAND_OLLAMA: return _("Ollama (Modelfile)");
    case VC_COMMAND_ACCELERATE: return _("Transformers (max_memory map)");
    case VC_COMMAND_DEEPSPEED: return _("DeepSpeed (ZeRO config)");
    case VC_COMMAND_FSDP: return _("Accelerate FSDP (config)");
    case VC_COMMAND_AXOLOTL: return _("Axolotl (YAML config)");
    case VC_COMMAND_LLAMAFACTORY: return _("LLaMA-Factory (YAML config)");
    case VC_COMMAND_TRL: return _("TRL (trl sft)");
    case VC_COMMAND_TORCHTUNE: return _("torchtune (tune run)");
    default: g_assert_not_reached ();
    }
}

static void
update (VcCommandView *self)
{
  g_autoptr(GError) error = NULL;
  VcCommandEngine engine = vc_command_view_get_engine (self);
  VcCommandRequest req;
  VcCommand *command = NULL;

  if (self->estimate == NULL)
    return;
  /* reading the estimate's results may recompute it, whose "changed" comes back here: the
   * command is built aside and put in place after */
  vc_command_request_from_estimate (&req, self->estimate);
  if (self->request.model_kind != VC_COMMAND_MODEL_NONE)
    {
      req.model_kind = self->request.model_kind;
      req.model = self->request.model;
      req.model_file = self->request.model_file;
    }
  if (vc_estimate_check (self->estimate, &error))
    command = vc_command_build (engine, &req, &error);
  /* what the request owns (the inputs at a plan's degrees); its model is borrowed, not owned */
  vc_command_request_clear (&req);
  g_clear_pointer (&self->command, vc_command_free);
  self->command = command;
  if (self->command != NULL)
    {
      g_autofree char *source = g_strdup_printf (_("Flags as of %s."), vc_command_engine_source (engine));

      gtk_label_set_text (self->command_text, self->command->text);
      gtk_label_set_text (self->note, source);
    }
  else
    {
      gtk_label_set_text (self->command_text, "");
      gtk_label_set_text (self->note, error->message);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->command_text), self->command != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->copy_button), self->command != NULL);
}

/* A new engine or mode on the estimate brings its command forward */
static void
estimate_changed (VcCommandView *self)
{
  VcCommandEngine engine;
  gboolean has = vc_command_estimate_engine (vc_estimate_get_inputs (self->estimate), &engine);

  if (has && (!self->has_own_engine || engine != self->own_engine))
    {
      self->has_own_engine = TRUE;
      self->own_engine = engine;
      vc_command_view_set_engine (self, engine);   /* updates when the choice changes */
    }
  self->has_own_engine = has;
  update (self);
}

/* A built-in model chosen: the files read before no longer name the model */
static void
preset_changed (VcCommandView *self)
{
  const char *preset = vc_estimate_get_preset (self->estimate);

  if (preset != NULL && *preset)
    vc_command_view_set_model (self, NULL);
}

static void
copy_clicked (VcCommandView *self)
{
  if (self->command == NULL)
    return;
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), self->command->text);
}

static const char *const plan_inputs[] = {
  "notify::gpu-set", "notify::host-ram", "notify::tensor-split", "notify::pp-partition", "notify::main-gpu",
  "notify::split-mode", "notify::n-cpu-moe",
};

void
vc_command_view_set_estimate (VcCommandView *self,
                              VcEstimate    *estimate)
{
  g_return_if_fail (VC_IS_COMMAND_VIEW (self));
  g_return_if_fail (VC_IS_ESTIMATE (estimate));
  g_return_if_fail (self->estimate == NULL);

  self->estimate = g_object_ref (estimate);
  g_signal_connect_object (estimate, "changed", G_CALLBACK (estimate_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::preset", G_CALLBACK (preset_changed), self, G_CONNECT_SWAPPED);
  /* the plan's own inputs notify without recomputing the estimate: the command states them too */
  for (guint i = 0; i < G_N_ELEMENTS (plan_inputs); i++)
    g_signal_connect_object (estimate, plan_inputs[i], G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  estimate_changed (self);
}

/**
 * vc_command_view_set_model:
 * @spec: (nullable): the model as vramcalc --model names it (a path, hf:ORG/NAME[:FILE] or
 *   ollama:NAME[:TAG]); NULL: the built-in model's repository
 */
void
vc_command_view_set_model (VcCommandView *self,
                           const char    *spec)
{
  g_return_if_fail (VC_IS_COMMAND_VIEW (self));

  if (!vc_command_request_set_model (&self->request, spec, NULL))
    vc_command_request_set_model (&self->request, NULL, NULL);
  update (self);
}

VcCommandEngine
vc_command_view_get_engine (VcCommandView *self)
{
  guint pos = vc_drop_down_get_selected (self->engine_chooser);

  return pos < VC_N_COMMAND_ENGINES ? (VcCommandEngine) pos : VC_COMMAND_VLLM;
}

void
vc_command_view_set_engine (VcCommandView   *self,
                            VcCommandEngine  engine)
{
  g_return_if_fail (VC_IS_COMMAND_VIEW (self));
  g_return_if_fail (engine < VC_N_COMMAND_ENGINES);

  vc_drop_down_set_selected (self->engine_chooser, engine);
}

/* The command shown; NULL when the engine cannot be told what the estimate assumes */
const char *
vc_command_view_get_text (VcCommandView *self)
{
  g_return_val_if_fail (VC_IS_COMMAND_VIEW (self), NULL);

  return self->command ? self->command->text : NULL;
}

static void
vc_command_view_dispose (GObject *object)
{
  VcCommandView *self = VC_COMMAND_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), VC_TYPE_COMMAND_VIEW);
  g_clear_object (&self->estimate);
  g_clear_pointer (&self->command, vc_command_free);
  vc_command_request_clear (&self->request);
  G_OBJECT_CLASS (vc_command_view_parent_class)->dispose (object);
}

static void
vc_command_view_class_init (VcCommandViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = vc_command_view_dispose;

  g_type_ensure (VC_TYPE_DROP_DOWN);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/vramcalc/VramCalculator/vc-command-view.ui");
  gtk_widget_class_bind_template_child (widget_class, VcCommandView, box);
  gtk_widget_class_bind_template_child (widget_class, VcCommandView, heading);
  gtk_widget_class_bind_template_child (widget_class, VcCommandView, engine_chooser);
  gtk_widget_class_bind_template_child (widget_class, VcCommandView, copy_button);
  gtk_widget_class_bind_template_child (widget_class, VcCommandView, command_text);
  gtk_widget_class_bind_template_child (widget_class, VcCommandView, note);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
vc_command_view_init (VcCommandView *self)
{
  g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);

  gtk_widget_init_template (GTK_WIDGET (self));
  vc_command_request_init (&self->request, NULL);
  for (guint i = 0; i < VC_N_COMMAND_ENGINES; i++)
    gtk_string_list_append (labels, engine_label (i));
  vc_drop_down_set_model (self->engine_chooser, G_LIST_MODEL (labels));
  vc_drop_down_set_selected (self->engine_chooser, VC_COMMAND_VLLM);
  vc_a11y_name (GTK_WIDGET (self->engine_chooser), _("Engine of the command"));
  g_signal_connect_swapped (self->engine_chooser, "notify::selected", G_CALLBACK (update), self);
  g_signal_connect_swapped (self->copy_button, "clicked", G_CALLBACK (copy_clicked), self);
}
