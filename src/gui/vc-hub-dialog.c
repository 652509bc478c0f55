/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-hub-dialog.c: a model from the Hugging Face Hub or from this computer (see the header).
 *
 * The network is used only when the user asks (Fetch, Enter, a quantization chosen); the
 * models on this computer are listed from disk when the dialog opens. A fetch runs in a thread
 * (vc_hub_fetch_async()) holding only a weak reference to the dialog, which cancels it when
 * it goes. */
#define G_LOG_DOMAIN "vc-hub-dialog"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-hub-dialog-private.h"
#include "vc-hub.h"
#include "vc-local-model.h"

struct _VcHubDialog
{
  GtkWindow parent_instance;

  VcHub *hub;
  GCancellable *cancellable;   /* the fetch under way, or NULL */
  gboolean disposed;
  char *status;
  char *repo;                  /* of the last fetch: its quantizations are this repository's */
  char *revision;
  GPtrArray *quants;           /* VcHubQuant */
  GtkStringList *quant_model;
  GPtrArray *locals;           /* VcLocalModel */
  GtkStringList *local_model;

  GtkEntry *entry;
  GtkButton *fetch_button;
  GtkButton *cancel_button;
  GtkProgressBar *progress;
  GtkLabel *status_label;
  GtkWidget *quant_heading;
  GtkWidget *quant_scroller;
  GtkListView *quant_list;
  GtkWidget *local_empty;
  GtkWidget *local_scroller;
  GtkListView *local_list;
};

G_DEFINE_FINAL_TYPE (VcHubDialog, vc_hub_dialog, GTK_TYPE_WINDOW)

enum
{
  SIGNAL_MODEL_CHOSEN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
set_status (VcHubDialog *self,
            const char  *text,
            gboolean     error)
{
  g_free (self->status);
  self->status = g_strdup (text ? text : "");
  gtk_label_set_text (self->status_label, self->status);
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), text != NULL && *text != '\0');
  if (error)
    gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "error");
}

static void
set_busy (VcHubDialog *self,
          gboolean     busy)
{
  gtk_widget_set_sensitive (GTK_WIDGET (self->fetch_button), !busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->quant_list), !busy);
  gtk_widget_set_visible (GTK_WIDGET (self->cancel_button), busy);
  gtk_widget_set_visible (GTK_WIDGET (self->progress), busy);
  if (busy)
    {
      gtk_progress_bar_set_fraction (self->progress, 0);
      gtk_progress_bar_set_text (self->progress, NULL);
    }
}

static void
show_quants (VcHubDialog *self,
             GPtrArray   *quants)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);

  g_clear_pointer (&self->quants, g_ptr_array_unref);
  self->quants = quants ? g_ptr_array_ref (quants) : NULL;
  for (guint i = 0; quants && i < quants->len; i++)
    {
      VcHubQuant *q = quants->pdata[i];
      g_autofree char *size = g_format_size_full (q->bytes, G_FORMAT_SIZE_DEFAULT);

      if (q->n_parts > 1)
        /* Translators: a quantization's name, its size, how many files it is split in */
        g_ptr_array_add (labels, g_strdup_printf (_("%s — %s in %u files"), q->label, size, q->n_parts));
      else
        /* Translators: a quantization's name and its size */
        g_ptr_array_add (labels, g_strdup_printf (_("%s — %s"), q->label, size));
    }
  g_ptr_array_add (labels, NULL);
  gtk_string_list_splice (self->quant_model, 0, g_list_model_get_n_items (G_LIST_MODEL (self->quant_model)),
                          (const char * const *) labels->pdata);
  gtk_widget_set_visible (self->quant_heading, quants && quants->len > 0);
  gtk_widget_set_visible (self->quant_scroller, quants && quants->len > 0);
}

static void
progress_said (VcHub       *hub,
               const char  *message,
               double       fraction,
               VcHubDialog *self)
{
  /* a fetch cancelled by closing the dialog may still say something: its widgets are gone */
  if (self->cancellable == NULL || self->disposed)
    return;
  gtk_progress_bar_set_text (self->progress, message);
  if (fraction >= 0)
    gtk_progress_bar_set_fraction (self->progress, fraction);
  else
    gtk_progress_bar_pulse (self->progress);
  set_status (self, message, FALSE);
}

static void
fetched (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  GWeakRef *weak = data;
  g_autoptr(VcHubDialog) self = g_weak_ref_get (weak);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) quants = NULL;
  g_autofree char *notice = NULL;
  g_autoptr(GFile) file = vc_hub_fetch_finish (VC_HUB (source), result, &notice, &quants, &error);

  g_weak_ref_clear (weak);
  g_free (weak);
  if (self == NULL)
    return;
  g_clear_object (&self->cancellable);
  if (self->disposed)
    return;
  set_busy (self, FALSE);
  if (quants != NULL)
    show_quants (self, quants);
  if (file == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        set_status (self, _("Cancelled."), FALSE);
      else if (g_error_matches (error, VC_HUB_ERROR, VC_HUB_ERROR_CHOOSE))
        set_status (self, _("This repository holds several GGUF quantizations: choose one."), FALSE);
      else
        set_status (self, error->message, TRUE);
      return;
    }
  {
    g_autofree char *done = notice ? g_strdup (notice) : g_strdup_printf (_("Opened %s."), self->repo);

    set_status (self, done, FALSE);
  }
  g_signal_emit (self, signals[SIGNAL_MODEL_CHOSEN], 0, file);
}

void
vc_hub_dialog_fetch (VcHubDialog *self,
                     const char  *name)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *repo = NULL;
  g_autofree char *revision = NULL;
  g_autofree char *file = NULL;

  g_return_if_fail (VC_IS_HUB_DIALOG (self));
  if (self->cancellable != NULL)
    return;
  if (!vc_hub_parse_name (name, &repo, &revision, &file, &error))
    {
      set_status (self, error->message, TRUE);
      return;
    }
  /* the entry says what is fetched, also when a quantization was clicked */
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->entry)), name) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->entry), name);
  /* a new repository: its own quantizations, once known */
  if (g_strcmp0 (repo, self->repo) != 0 || g_strcmp0 (revision, self->revision) != 0)
    show_quants (self, NULL);
  g_free (self->repo);
  self->repo = g_steal_pointer (&repo);
  g_free (self->revision);
  self->revision = g_steal_pointer (&revision);
  self->cancellable = g_cancellable_new ();
  set_busy (self, TRUE);
  {
    g_autofree char *what = g_strdup_printf (_("Asking the Hub for %s…"), self->repo);

    set_status (self, what, FALSE);
    gtk_progress_bar_set_text (self->progress, what);
  }
  {
    GWeakRef *weak = g_new0 (GWeakRef, 1);

    g_weak_ref_init (weak, self);
    vc_hub_fetch_async (self->hub, name, self->cancellable, fetched, weak);
  }
}

void
vc_hub_dialog_cancel (VcHubDialog *self)
{
  g_return_if_fail (VC_IS_HUB_DIALOG (self));
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
}

gboolean
vc_hub_dialog_is_busy (VcHubDialog *self)
{
  g_return_val_if_fail (VC_IS_HUB_DIALOG (self), FALSE);
  return self->cancellable != NULL;
}

const char *
vc_hub_dialog_get_status (VcHubDialog *self)
{
  g_return_val_if_fail (VC_IS_HUB_DIALOG (self), NULL);
  return self->status;
}

GListModel *
vc_hub_dialog_get_quantizations (VcHubDialog *self)
{
  g_return_val_if_fail (VC_IS_HUB_DIALOG (self), NULL);
  return G_LIST_MODEL (self->quant_model);
}

GListModel *
vc_hub_dialog_get_local_models (VcHubDialog *self)
{
  g_return_val_if_fail (VC_IS_HUB_DIALOG (self), NULL);
  return G_LIST_MODEL (self->local_model);
}

void
vc_hub_dialog_choose_quantization (VcHubDialog *self,
                                   guint        position)
{
  g_autofree char *name = NULL;

  g_return_if_fail (VC_IS_HUB_DIALOG (self));
  if (self->quants == NULL || position >= self->quants->len)
    return;
  name = g_strdup_printf ("%s@%s:%s", self->repo, self->revision,
                          ((VcHubQuant *) self->quants->pdata[position])->file);
  vc_hub_dialog_fetch (self, name);
}

void
vc_hub_dialog_choose_local (VcHubDialog *self,
                            guint        position)
{
  VcLocalModel *m;
  g_autofree char *done = NULL;

  g_return_if_fail (VC_IS_HUB_DIALOG (self));
  if (self->locals == NULL || position >= self->locals->len)
    return;
  m = self->locals->pdata[position];
  done = g_strdup_printf (_("Opened %s."), vc_local_model_get_name (m));
  set_status (self, done, FALSE);
  g_signal_emit (self, signals[SIGNAL_MODEL_CHOSEN], 0, vc_local_model_get_file (m));
}

static void
entry_activated (VcHubDialog *self)
{
  vc_hub_dialog_fetch (self, gtk_editable_get_text (GTK_EDITABLE (self->entry)));
}

static void
quant_activated (VcHubDialog *self,
                 guint        position)
{
  vc_hub_dialog_choose_quantization (self, position);
}

static void
local_activated (VcHubDialog *self,
                 guint        position)
{
  vc_hub_dialog_choose_local (self, position);
}

static const char *
source_label (const char *source)
{
  if (g_str_equal (source, "ollama"))
    return "Ollama";
  if (g_str_equal (source, "lmstudio"))
    return "LM Studio";
  return _("Hugging Face cache");
}

/* From disk only: the folders Ollama, LM Studio and the Hub's cache keep models in. */
static void
list_local (VcHubDialog *self)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);

  self->locals = vc_local_models_list (NULL, NULL);
  for (guint i = 0; i < self->locals->len; i++)
    {
      VcLocalModel *m = self->locals->pdata[i];
      g_autofree char *size = g_format_size_full (vc_local_model_get_bytes (m), G_FORMAT_SIZE_DEFAULT);

      /* Translators: a model's name, where it was found (Ollama, LM Studio, …) and its size */
      g_ptr_array_add (labels, g_strdup_printf (_("%s — %s, %s"), vc_local_model_get_name (m),
                                                source_label (vc_local_model_get_source (m)), size));
    }
  g_ptr_array_add (labels, NULL);
  gtk_string_list_splice (self->local_model, 0, 0, (const char * const *) labels->pdata);
  gtk_widget_set_visible (self->local_empty, self->locals->len == 0);
  gtk_widget_set_visible (self->local_scroller, self->locals->len > 0);
}

/* closed: the fetch under way ends */
static void
vc_hub_dialog_unrealize (GtkWidget *widget)
{
  vc_hub_dialog_cancel (VC_HUB_DIALOG (widget));
  GTK_WIDGET_CLASS (vc_hub_dialog_parent_class)->unrealize (widget);
}

static void
vc_hub_dialog_dispose (GObject *object)
{
  VcHubDialog *self = VC_HUB_DIALOG (object);

  self->disposed = TRUE;
  if (self->hub)
    g_signal_handlers_disconnect_by_data (self->hub, self);
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), VC_TYPE_HUB_DIALOG);
  G_OBJECT_CLASS (vc_hub_dialog_parent_class)->dispose (object);
}

static void
vc_hub_dialog_finalize (GObject *object)
{
  VcHubDialog *self = VC_HUB_DIALOG (object);

  g_clear_object (&self->hub);
  g_clear_object (&self->cancellable);
  g_free (self->status);
  g_free (self->repo);
  g_free (self->revision);
  g_clear_pointer (&self->quants, g_ptr_array_unref);
  g_clear_pointer (&self->locals, g_ptr_array_unref);
  g_clear_object (&self->quant_model);
  g_clear_object (&self->local_model);
  G_OBJECT_CLASS (vc_hub_dialog_parent_class)->finalize (object);
}

static void
vc_hub_dialog_class_init (VcHubDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = vc_hub_dialog_dispose;
  object_class->finalize = vc_hub_dialog_finalize;
  widget_class->unrealize = vc_hub_dialog_unrealize;

  /* a model file or folder ready to read, as a file chooser would give */
  signals[SIGNAL_MODEL_CHOSEN] =
    g_signal_new ("model-chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_FILE);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/vramcalc/VramCalculator/vc-hub-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, VcHubDialog, entry);
  gtk_widget_class_bind_template_child (widget_class, VcHubDialog, fetch_button);
  gtk_widget_class_bind_template_child (widget_class, VcHubDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, VcHubDialog, progress);
  gtk_widget_class_bind_template_child (widget_class, VcHubDialog, status_label);
  gtk_widget_class_bind_template_child (widget_class, VcHubDialog, quant_heading);
  gtk_widget_class_bind_template_child (widget_class, VcHubDialog, quant_scroller);
  gtk_widget_class_bind_template_child (widget_class, VcHubDialog, quant_list);
  gtk_widget_class_bind_template_child (widget_class, VcHubDialog, local_empty);
  gtk_widget_class_bind_template_child (widget_class, VcHubDialog, local_scroller);
  gtk_widget_class_bind_template_child (widget_class, VcHubDialog, local_list);
  gtk_widget_class_bind_template_callback (widget_class, entry_activated);
  gtk_widget_class_bind_template_callback (widget_class, quant_activated);
  gtk_widget_class_bind_template_callback (widget_class, local_activated);
  gtk_widget_class_bind_template_callback (widget_class, vc_hub_dialog_cancel);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
}

static void
vc_hub_dialog_init (VcHubDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->hub = vc_hub_new ();
  g_signal_connect_object (self->hub, "progress", G_CALLBACK (progress_said), self, 0);
  self->quant_model = gtk_string_list_new (NULL);
  self->local_model = gtk_string_list_new (NULL);
  {
    g_autoptr(GtkNoSelection) quants = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->quant_model)));
    g_autoptr(GtkNoSelection) locals = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->local_model)));

    gtk_list_view_set_model (self->quant_list, GTK_SELECTION_MODEL (quants));
    gtk_list_view_set_model (self->local_list, GTK_SELECTION_MODEL (locals));
  }
  list_local (self);
}

/**
 * vc_hub_dialog_new:
 * @parent: (nullable): the window a chosen model is for
 *
 * Returns: (transfer none): the dialog, not yet shown
 */
GtkWidget *
vc_hub_dialog_new (GtkWindow *parent)
{
  return g_object_new (VC_TYPE_HUB_DIALOG,
                       "transient-for", parent,
                       "application", parent ? gtk_window_get_application (parent) : NULL,
                       NULL);
}
