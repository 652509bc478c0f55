/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-shortcuts-window.c: the keyboard shortcuts in a plain window, in groups, each shortcut's
 * title beside its keys. The groups and shortcuts are read from the GtkShortcutsWindow
 * description in the resources (vc-shortcuts.ui) with GMarkup, without building its deprecated
 * widgets; the keys of a shortcut given by its action are the application's accelerators for
 * it, as GtkShortcutsShortcut shows them. (GNOME applications moved to libadwaita's
 * AdwShortcutsDialog, which this app, GTK only, does not use.) */
#define G_LOG_DOMAIN "vc-shortcuts-window"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-shortcuts-window.h"

#define SHORTCUTS_RESOURCE "/io/github/vramcalc/VramCalculator/vc-shortcuts.ui"

struct _VcShortcutsWindow
{
  GtkWindow parent_instance;
};

G_DEFINE_FINAL_TYPE (VcShortcutsWindow, vc_shortcuts_window, GTK_TYPE_WINDOW)

/* ---- reading the description ------------------------------------------------------------------ */

typedef struct
{
  char *title;
  char *accelerator;       /* as GtkShortcutsShortcut:accelerator, or NULL */
  char *action;            /* as GtkShortcutsShortcut:action-name, or NULL */
} Shortcut;

typedef struct
{
  char *title;
  GPtrArray *shortcuts;
} Group;

typedef struct
{
  GPtrArray *groups;
  Group *group;            /* the group being read */
  Shortcut *shortcut;      /* the shortcut being read */
  char *property;          /* the property being read */
  GString *text;
} Reader;

static void
shortcut_free (Shortcut *shortcut)
{
  g_free (shortcut->title);
  g_free (shortcut->accelerator);
  g_free (shortcut->action);
  g_free (shortcut);
}

static void
group_free (Group *group)
{
  g_free (group->title);
  g_ptr_array_unref (group->shortcuts);
  g_free (group);
}

static void
start_element (GMarkupParseContext  *context,
               const char           *element,
               const char          **names,
               const char          **values,
               gpointer              data,
               GError              **error)
{
  Reader *reader = data;
  const char *class_name = NULL, *name = NULL;

  for (guint i = 0; names[i] != NULL; i++)
    {
      if (g_str_equal (names[i], "class"))
        class_name = values[i];
      else if (g_str_equal (names[i], "name"))
        name = values[i];
    }
  if (g_str_equal (element, "object") && g_strcmp0 (class_name, "GtkShortcutsGroup") == 0)
    {
      reader->group = g_new0 (Group, 1);
      reader->group->shortcuts = g_ptr_array_new_with_free_func ((GDestroyNotify) shortcut_free);
      g_ptr_array_add (reader->groups, reader->group);
    }
  else if (g_str_equal (element, "object") && g_strcmp0 (class_name, "GtkShortcutsShortcut") == 0 &&
           reader->group != NULL)
    {
      reader->shortcut = g_new0 (Shortcut, 1);
      g_ptr_array_add (reader->group->shortcuts, reader->shortcut);
    }
  else if (g_str_equal (element, "property") && name != NULL)
    {
      g_free (reader->property);
      reader->property = g_strdup (name);
      g_string_truncate (reader->text, 0);
    }
}

static void
end_element (GMarkupParseContext  *context,
             const char           *element,
             gpointer              data,
             GError              **error)
{
  Reader *reader = data;
  char **slot = NULL;

  if (g_str_equal (element, "property") && reader->property != NULL)
    {
      if (reader->shortcut != NULL && g_str_equal (reader->property, "title"))
        slot = &reader->shortcut->title;
      else if (reader->shortcut != NULL && g_str_equal (reader->property, "accelerator"))
        slot = &reader->shortcut->accelerator;
      else if (reader->shortcut != NULL && g_str_equal (reader->property, "action-name"))
        slot = &reader->shortcut->action;
      else if (reader->shortcut == NULL && reader->group != NULL && g_str_equal (reader->property, "title"))
        slot = &reader->group->title;
      if (slot != NULL)
        {
          g_free (*slot);
          *slot = g_strdup (reader->text->str);
        }
      g_clear_pointer (&reader->property, g_free);
    }
  else if (g_str_equal (element, "object"))
    {
      /* objects nest group > shortcut: the innermost one open ends */
      if (reader->shortcut != NULL)
        reader->shortcut = NULL;
      else
        reader->group = NULL;
    }
}

static void
on_text (GMarkupParseContext  *context,
         const char           *text_value,
         gsize                 length,
         gpointer              data,
         GError              **error)
{
  Reader *reader = data;

  if (reader->property != NULL)
    g_string_append_len (reader->text, text_value, length);
}

/* The groups of the shortcuts description (Group), in its order */
static GPtrArray *
read_groups (void)
{
  static const GMarkupParser parser = { start_element, end_element, on_text, NULL, NULL };
  g_autoptr(GBytes) bytes = g_resources_lookup_data (SHORTCUTS_RESOURCE, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  Reader reader = { g_ptr_array_new_with_free_func ((GDestroyNotify) group_free), NULL, NULL, NULL,
                    g_string_new (NULL) };
  g_autoptr(GMarkupParseContext) context = g_markup_parse_context_new (&parser, 0, &reader, NULL);
  gsize length;
  const char *data = g_bytes_get_data (bytes, &length);
  g_autoptr(GError) error = NULL;

  if (!g_markup_parse_context_parse (context, data, length, &error) ||
      !g_markup_parse_context_end_parse (context, &error))
    g_critical ("%s: %s", SHORTCUTS_RESOURCE, error->message);
  g_free (reader.property);
  g_string_free (reader.text, TRUE);
  return reader.groups;
}

/* ---- the window ------------------------------------------------------------------------------ */

/* "Ctrl+S", as GTK writes keys for people; several accelerators joined */
static char *
keys_label (GtkApplication *app,
            Shortcut       *shortcut)
{
  g_auto(GStrv) accels = NULL;
  g_autoptr(GString) label = g_string_new (NULL);

  if (shortcut->accelerator != NULL)
    accels = g_strsplit (shortcut->accelerator, " ", -1);
  else if (shortcut->action != NULL && app != NULL)
    accels = gtk_application_get_accels_for_action (app, shortcut->action);
  for (guint i = 0; accels != NULL && accels[i] != NULL; i++)
    {
      guint key;
      GdkModifierType mods;
      g_autofree char *one = NULL;

      if (!gtk_accelerator_parse (accels[i], &key, &mods))
        continue;
      one = gtk_accelerator_get_label (key, mods);
      g_string_append_printf (label, "%s%s", label->len ? ", " : "", one);
    }
  return g_string_free (g_steal_pointer (&label), FALSE);
}

static GtkWidget *
group_widget (GtkApplication *app,
              Group          *group)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *heading = gtk_label_new (g_dgettext (GETTEXT_PACKAGE, group->title ? group->title : ""));
  GtkWidget *grid = gtk_grid_new ();

  gtk_widget_add_css_class (heading, "heading");
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 24);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_box_append (GTK_BOX (box), heading);
  gtk_box_append (GTK_BOX (box), grid);
  for (guint i = 0; i < group->shortcuts->len; i++)
    {
      Shortcut *shortcut = group->shortcuts->pdata[i];
      g_autofree char *keys = keys_label (app, shortcut);
      GtkWidget *title = gtk_label_new (g_dgettext (GETTEXT_PACKAGE, shortcut->title ? shortcut->title : ""));
      GtkWidget *accel = gtk_label_new (keys);

      gtk_label_set_xalign (GTK_LABEL (title), 0);
      gtk_widget_set_hexpand (title, TRUE);
      gtk_label_set_xalign (GTK_LABEL (accel), 1);
      gtk_widget_add_css_class (accel, "dim-label");
      /* read as one: "Save, Ctrl+S" */
      gtk_accessible_update_relation (GTK_ACCESSIBLE (accel), GTK_ACCESSIBLE_RELATION_LABELLED_BY, title, NULL, -1);
      gtk_grid_attach (GTK_GRID (grid), title, 0, i, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), accel, 1, i, 1, 1);
    }
  return box;
}

static void
vc_shortcuts_window_class_init (VcShortcutsWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
}

static void
vc_shortcuts_window_init (VcShortcutsWindow *self)
{
  gtk_window_set_title (GTK_WINDOW (self), _("Keyboard Shortcuts"));
  gtk_window_set_default_size (GTK_WINDOW (self), 420, 560);
}

/**
 * vc_shortcuts_window_new:
 * @parent: the window whose application's accelerators are shown
 *
 * Returns: (transfer none): a modal shortcuts window, not yet shown
 */
GtkWidget *
vc_shortcuts_window_new (GtkWindow *parent)
{
  GtkApplication *app = gtk_window_get_application (parent);
  GtkWidget *self = g_object_new (VC_TYPE_SHORTCUTS_WINDOW,
                                  "transient-for", parent,
                                  "modal", TRUE,
                                  "destroy-with-parent", TRUE,
                                  "application", app,
                                  NULL);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 18);
  g_autoptr(GPtrArray) groups = read_groups ();

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  for (guint i = 0; i < groups->len; i++)
    gtk_box_append (GTK_BOX (box), group_widget (app, groups->pdata[i]));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), box);
  gtk_window_set_child (GTK_WINDOW (self), scroller);
  return self;
}
