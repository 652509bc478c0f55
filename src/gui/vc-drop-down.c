/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-drop-down.c: a drop-down list of strings (GtkStringObject items) that looks and works like
 * a GtkDropDown — a toggle button showing the chosen string, a popover with the list, an
 * optional search — but makes its popover, list and search entry only the first time it opens.
 * GtkDropDown builds them with the widget, about 30 widgets each, hidden: with fifteen
 * drop-downs that was a third of the widgets made before the window's first frame.
 *
 * The search, when a search expression is set, matches any part of the expression's string,
 * ignoring case (GTK 4.8's drop-down matches the start only); Enter in the search entry picks
 * the first item shown and Escape closes the list. */
#define G_LOG_DOMAIN "vc-drop-down"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-compat.h"
#include "vc-drop-down-private.h"

struct _VcDropDown
{
  GtkWidget parent_instance;

  GListModel *model;
  guint selected;
  GObject *selected_item;            /* held: the model may make its items on demand */
  GtkExpression *search_expression;

  GtkWidget *button;
  GtkLabel *label;

  /* made when the list first opens */
  GtkWidget *popover;
  GtkWidget *search_entry;
  GtkWidget *list;
  GtkFilterListModel *filtered;      /* the model under the search, NULL without one */
  GtkSingleSelection *popup_selection;
};

enum {
  PROP_0,
  PROP_MODEL,
  PROP_SELECTED,
  PROP_SELECTED_ITEM,
  PROP_SEARCH_EXPRESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  ACTIVATE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (VcDropDown, vc_drop_down, GTK_TYPE_WIDGET)

static guint
n_items (VcDropDown *self)
{
  return self->model != NULL ? g_list_model_get_n_items (self->model) : 0;
}

static const char *
item_string (gpointer item)
{
  return GTK_IS_STRING_OBJECT (item) ? gtk_string_object_get_string (item) : "";
}

/* the item at the chosen position, the button's text; notifies what changed */
static void
update_selected_item (VcDropDown *self)
{
  g_autoptr(GObject) item = NULL;

  if (self->selected != GTK_INVALID_LIST_POSITION && self->model != NULL)
    item = g_list_model_get_item (self->model, self->selected);
  /* (no label once disposed: a binding may still set the position) */
  if (self->label != NULL)
    /* TRANSLATORS: shown in a drop-down list when none of its items is chosen */
    gtk_label_set_label (self->label, item != NULL ? item_string (item) : C_("drop-down", "(None)"));
  if (g_set_object (&self->selected_item, item))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ITEM]);
}

/* ---- the list, made on first opening -------------------------------------------------------- */

static void
update_check (GtkListItem *list_item)
{
  GtkWidget *check = gtk_widget_get_last_child (gtk_list_item_get_child (list_item));
  VcDropDown *self = g_object_get_data (G_OBJECT (list_item), "vc-drop-down");
  gpointer chosen = self->selected_item;

  /* the mark keeps its room, so the list does not change width */
  gtk_widget_set_opacity (check, chosen != NULL && chosen == gtk_list_item_get_item (list_item) ? 1 : 0);
}

static void
setup_row (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           VcDropDown               *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 10);
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_accessible_update_state (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), check);
  gtk_list_item_set_child (list_item, box);
  g_object_set_data (G_OBJECT (list_item), "vc-drop-down", self);
}

static void
bind_row (GtkSignalListItemFactory *factory,
          GtkListItem              *list_item,
          VcDropDown               *self)
{
  GtkWidget *label = gtk_widget_get_first_child (gtk_list_item_get_child (list_item));

  gtk_label_set_label (GTK_LABEL (label), item_string (gtk_list_item_get_item (list_item)));
  /* for vc_list_view_focus_item() */
  g_object_set_data (G_OBJECT (gtk_list_item_get_child (list_item)), "vc-list-position",
                     GUINT_TO_POINTER (gtk_list_item_get_position (list_item) + 1));
  update_check (list_item);
  g_signal_connect_object (self, "notify::selected-item", G_CALLBACK (update_check), list_item,
                           G_CONNECT_SWAPPED);
}

static void
unbind_row (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            VcDropDown               *self)
{
  g_signal_handlers_disconnect_by_func (self, update_check, list_item);
}

/* the position in the full list of the item at @position in the list shown */
static guint
model_position (VcDropDown *self,
                guint       position)
{
  g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (self->popup_selection), position);

  if (item == NULL)
    return GTK_INVALID_LIST_POSITION;
  for (guint i = 0; i < n_items (self); i++)
    {
      g_autoptr(GObject) candidate = g_list_model_get_item (self->model, i);

      if (candidate == item)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

static void
choose (VcDropDown *self,
        guint       position)
{
  guint chosen = model_position (self, position);

  gtk_popover_popdown (GTK_POPOVER (self->popover));
  if (chosen != GTK_INVALID_LIST_POSITION)
    vc_drop_down_set_selected (self, chosen);
}

static void
row_activated (GtkListView *list,
               guint        position,
               VcDropDown  *self)
{
  choose (self, position);
}

static void
search_changed (GtkSearchEntry *entry,
                VcDropDown     *self)
{
  GtkStringFilter *filter = GTK_STRING_FILTER (gtk_filter_list_model_get_filter (self->filtered));

  gtk_string_filter_set_search (filter, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

/* Enter: the first item shown */
static void
search_activated (GtkSearchEntry *entry,
                  VcDropDown     *self)
{
  if (*gtk_editable_get_text (GTK_EDITABLE (entry)) == '\0')
    return;
  /* what the entry holds may not have reached the filter yet (it waits for typing to pause) */
  search_changed (entry, self);
  if (g_list_model_get_n_items (G_LIST_MODEL (self->popup_selection)) > 0)
    choose (self, 0);
}

static void
search_stopped (GtkSearchEntry *entry,
                VcDropDown     *self)
{
  gtk_popover_popdown (GTK_POPOVER (self->popover));
}

static void
popover_closed (VcDropDown *self)
{
  if (self->search_entry != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->button), FALSE);
}

static void
set_popup_model (VcDropDown *self)
{
  if (self->filtered != NULL)
    gtk_filter_list_model_set_model (self->filtered, self->model);
  else
    gtk_single_selection_set_model (self->popup_selection, self->model);
}

static GtkWidget *
make_search_entry (VcDropDown *self)
{
  GtkWidget *entry = gtk_search_entry_new ();
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkStringFilter *filter = gtk_string_filter_new (gtk_expression_ref (self->search_expression));

  gtk_string_filter_set_match_mode (filter, GTK_STRING_FILTER_MATCH_MODE_SUBSTRING);
  self->filtered = gtk_filter_list_model_new (NULL, GTK_FILTER (filter));
  self->search_entry = entry;

  gtk_widget_add_css_class (bar, "dropdown-searchbar");
  gtk_widget_set_hexpand (entry, TRUE);
  gtk_editable_set_width_chars (GTK_EDITABLE (entry), 6);
  gtk_editable_set_max_width_chars (GTK_EDITABLE (entry), 6);
  g_object_set (entry, "placeholder-text", _("Search…"), NULL);
  g_signal_connect (entry, "search-changed", G_CALLBACK (search_changed), self);
  g_signal_connect (entry, "activate", G_CALLBACK (search_activated), self);
  g_signal_connect (entry, "stop-search", G_CALLBACK (search_stopped), self);
  gtk_box_append (GTK_BOX (bar), entry);
  return bar;
}

static void
ensure_popover (VcDropDown *self)
{
  GtkWidget *box, *scrolled;
  GtkListItemFactory *factory;

  if (self->popover != NULL)
    return;

  self->popover = g_object_new (GTK_TYPE_POPOVER,
                                "accessible-role", GTK_ACCESSIBLE_ROLE_LIST_BOX,
                                "has-arrow", FALSE,
                                "halign", GTK_ALIGN_START,
                                NULL);
  gtk_widget_add_css_class (self->popover, "menu");
  g_signal_connect_swapped (self->popover, "closed", G_CALLBACK (popover_closed), self);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_popover_set_child (GTK_POPOVER (self->popover), box);

  if (self->search_expression != NULL)
    gtk_box_append (GTK_BOX (box), make_search_entry (self));
  self->popup_selection = gtk_single_selection_new (self->filtered != NULL
                                                    ? g_object_ref (G_LIST_MODEL (self->filtered))
                                                    : NULL);
  gtk_single_selection_set_autoselect (self->popup_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->popup_selection, TRUE);
  set_popup_model (self);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row), self);
  self->list = gtk_list_view_new (GTK_SELECTION_MODEL (g_object_ref (self->popup_selection)), factory);
  gtk_list_view_set_single_click_activate (GTK_LIST_VIEW (self->list), TRUE);
  g_signal_connect (self->list, "activate", G_CALLBACK (row_activated), self);

  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 400);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->list);
  gtk_box_append (GTK_BOX (box), scrolled);

  gtk_widget_set_parent (self->popover, GTK_WIDGET (self));
}

/* the focus where the keyboard continues: the search, or the chosen item */
static void
focus_list (VcDropDown *self)
{
  if (self->search_entry != NULL)
    gtk_widget_grab_focus (self->search_entry);
  else if (self->selected != GTK_INVALID_LIST_POSITION)
    vc_list_view_focus_item (GTK_LIST_VIEW (self->list), self->selected);
  else
    gtk_widget_child_focus (self->list, GTK_DIR_TAB_FORWARD);
}

/* A list opened for the first time has no rows until it is laid out: the focus goes to the
 * chosen one once the popover's first frame is drawn. */
static void
focus_after_frame (GdkFrameClock *clock,
                   VcDropDown    *self)
{
  g_signal_handlers_disconnect_by_func (clock, focus_after_frame, self);
  if (self->popover != NULL && gtk_widget_get_visible (self->popover))
    focus_list (self);
}

static void
open_list (VcDropDown *self)
{
  gboolean laid_out = self->popover != NULL && gtk_widget_get_width (self->list) > 0;

  ensure_popover (self);
  if (self->search_entry != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  if (self->filtered != NULL)
    search_changed (GTK_SEARCH_ENTRY (self->search_entry), self);
  gtk_single_selection_set_selected (self->popup_selection, self->selected);
  gtk_popover_popup (GTK_POPOVER (self->popover));
  focus_list (self);
  if (!laid_out && self->search_entry == NULL && gtk_widget_get_frame_clock (self->popover) != NULL)
    g_signal_connect_object (gtk_widget_get_frame_clock (self->popover), "after-paint",
                             G_CALLBACK (focus_after_frame), self, 0);
}

static void
button_toggled (GtkToggleButton *button,
                VcDropDown      *self)
{
  gboolean active = gtk_toggle_button_get_active (button);

  if (active)
    open_list (self);
  else if (self->popover != NULL)
    gtk_popover_popdown (GTK_POPOVER (self->popover));
  gtk_accessible_update_state (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_STATE_EXPANDED, active, -1);
}

static void
vc_drop_down_activate (VcDropDown *self)
{
  gtk_widget_activate (self->button);
}

/* ---- the widget ----------------------------------------------------------------------------- */

static void
vc_drop_down_measure (GtkWidget      *widget,
                      GtkOrientation  orientation,
                      int             for_size,
                      int            *minimum,
                      int            *natural,
                      int            *minimum_baseline,
                      int            *natural_baseline)
{
  VcDropDown *self = VC_DROP_DOWN (widget);

  gtk_widget_measure (self->button, orientation, for_size, minimum, natural,
                      minimum_baseline, natural_baseline);
}

static void
vc_drop_down_size_allocate (GtkWidget *widget,
                            int        width,
                            int        height,
                            int        baseline)
{
  VcDropDown *self = VC_DROP_DOWN (widget);

  gtk_widget_size_allocate (self->button, &(GtkAllocation) { 0, 0, width, height }, baseline);
  if (self->popover != NULL)
    {
      gtk_widget_set_size_request (self->popover, width, -1);
      gtk_widget_queue_resize (self->popover);
      gtk_popover_present (GTK_POPOVER (self->popover));
    }
}

static gboolean
vc_drop_down_focus (GtkWidget        *widget,
                    GtkDirectionType  direction)
{
  VcDropDown *self = VC_DROP_DOWN (widget);

  if (self->popover != NULL && gtk_widget_get_visible (self->popover))
    return gtk_widget_child_focus (self->popover, direction);
  return gtk_widget_child_focus (self->button, direction);
}

static gboolean
vc_drop_down_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (VC_DROP_DOWN (widget)->button);
}

static void
model_items_changed (VcDropDown *self)
{
  if (self->selected != GTK_INVALID_LIST_POSITION && self->selected >= n_items (self))
    vc_drop_down_set_selected (self, GTK_INVALID_LIST_POSITION);
  else
    update_selected_item (self);
}

static void
vc_drop_down_dispose (GObject *object)
{
  VcDropDown *self = VC_DROP_DOWN (object);

  g_clear_pointer (&self->popover, gtk_widget_unparent);
  g_clear_pointer (&self->button, gtk_widget_unparent);
  self->label = NULL;
  self->list = NULL;
  self->search_entry = NULL;
  g_clear_object (&self->popup_selection);
  g_clear_object (&self->filtered);
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, model_items_changed, self);
  g_clear_object (&self->model);
  g_clear_object (&self->selected_item);
  g_clear_pointer (&self->search_expression, gtk_expression_unref);

  G_OBJECT_CLASS (vc_drop_down_parent_class)->dispose (object);
}

static void
vc_drop_down_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  VcDropDown *self = VC_DROP_DOWN (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;
    case PROP_SELECTED:
      g_value_set_uint (value, self->selected);
      break;
    case PROP_SELECTED_ITEM:
      g_value_set_object (value, self->selected_item);
      break;
    case PROP_SEARCH_EXPRESSION:
      gtk_value_set_expression (value, self->search_expression);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
vc_drop_down_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  VcDropDown *self = VC_DROP_DOWN (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      vc_drop_down_set_model (self, g_value_get_object (value));
      break;
    case PROP_SELECTED:
      vc_drop_down_set_selected (self, g_value_get_uint (value));
      break;
    case PROP_SEARCH_EXPRESSION:
      vc_drop_down_set_search_expression (self, gtk_value_get_expression (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
vc_drop_down_class_init (VcDropDownClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = vc_drop_down_dispose;
  object_class->get_property = vc_drop_down_get_property;
  object_class->set_property = vc_drop_down_set_property;
  widget_class->measure = vc_drop_down_measure;
  widget_class->size_allocate = vc_drop_down_size_allocate;
  widget_class->focus = vc_drop_down_focus;
  widget_class->grab_focus = vc_drop_down_grab_focus;

  properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SELECTED] =
    g_param_spec_uint ("selected", NULL, NULL, 0, G_MAXUINT, GTK_INVALID_LIST_POSITION,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SELECTED_ITEM] =
    g_param_spec_object ("selected-item", NULL, NULL, G_TYPE_OBJECT,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SEARCH_EXPRESSION] =
    gtk_param_spec_expression ("search-expression", NULL, NULL,
                               G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* a mnemonic, or activating the widget, opens the list */
  signals[ACTIVATE] =
    g_signal_new_class_handler ("activate", G_TYPE_FROM_CLASS (klass),
                                G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION,
                                G_CALLBACK (vc_drop_down_activate),
                                NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_activate_signal (widget_class, signals[ACTIVATE]);

  gtk_widget_class_set_css_name (widget_class, "dropdown");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_COMBO_BOX);
}

static void
vc_drop_down_init (VcDropDown *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *arrow = gtk_image_new_from_icon_name ("pan-down-symbolic");

  self->selected = GTK_INVALID_LIST_POSITION;
  self->button = gtk_toggle_button_new ();
  self->label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->label, 0);
  gtk_widget_set_hexpand (GTK_WIDGET (self->label), TRUE);
  gtk_widget_set_can_focus (box, FALSE);
  gtk_accessible_update_state (GTK_ACCESSIBLE (arrow), GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->label));
  gtk_box_append (GTK_BOX (box), arrow);
  gtk_button_set_child (GTK_BUTTON (self->button), box);
  gtk_widget_set_parent (self->button, GTK_WIDGET (self));
  g_signal_connect (self->button, "toggled", G_CALLBACK (button_toggled), self);
  update_selected_item (self);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_HAS_POPUP, TRUE, -1);
  gtk_accessible_update_state (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_STATE_EXPANDED, FALSE, -1);
}

GtkWidget *
vc_drop_down_new (void)
{
  return g_object_new (VC_TYPE_DROP_DOWN, NULL);
}

/**
 * vc_drop_down_set_model:
 * @model: (nullable): a list of GtkStringObject
 *
 * The selection is kept by position when it is still in the list.
 */
void
vc_drop_down_set_model (VcDropDown *self,
                        GListModel *model)
{
  g_return_if_fail (VC_IS_DROP_DOWN (self));
  g_return_if_fail (model == NULL || G_IS_LIST_MODEL (model));

  if (self->model == model)
    return;
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, model_items_changed, self);
  g_set_object (&self->model, model);
  if (model != NULL)
    g_signal_connect_swapped (model, "items-changed", G_CALLBACK (model_items_changed), self);
  if (self->popup_selection != NULL)
    set_popup_model (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
  model_items_changed (self);
}

GListModel *
vc_drop_down_get_model (VcDropDown *self)
{
  g_return_val_if_fail (VC_IS_DROP_DOWN (self), NULL);

  return self->model;
}

/**
 * vc_drop_down_set_selected:
 * @position: an item's position, or GTK_INVALID_LIST_POSITION (so is any position past the
 *   end): nothing chosen
 */
void
vc_drop_down_set_selected (VcDropDown *self,
                           guint       position)
{
  g_return_if_fail (VC_IS_DROP_DOWN (self));

  if (position >= n_items (self))
    position = GTK_INVALID_LIST_POSITION;
  if (self->selected == position)
    return;
  self->selected = position;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
  update_selected_item (self);
}

guint
vc_drop_down_get_selected (VcDropDown *self)
{
  g_return_val_if_fail (VC_IS_DROP_DOWN (self), GTK_INVALID_LIST_POSITION);

  return self->selected;
}

/**
 * vc_drop_down_get_selected_item:
 *
 * Returns: (transfer none) (nullable): the chosen item
 */
gpointer
vc_drop_down_get_selected_item (VcDropDown *self)
{
  g_return_val_if_fail (VC_IS_DROP_DOWN (self), NULL);

  return self->selected_item;
}

/**
 * vc_drop_down_set_search_expression:
 * @expression: (nullable): the text an item is searched by, a string; NULL: no search
 *
 * Set before the list first opens.
 */
void
vc_drop_down_set_search_expression (VcDropDown    *self,
                                    GtkExpression *expression)
{
  g_return_if_fail (VC_IS_DROP_DOWN (self));
  g_return_if_fail (expression == NULL || gtk_expression_get_value_type (expression) == G_TYPE_STRING);

  if (self->search_expression == expression)
    return;
  /* the popover is made with or without its search entry */
  g_return_if_fail (self->popover == NULL);
  g_clear_pointer (&self->search_expression, gtk_expression_unref);
  if (expression != NULL)
    self->search_expression = gtk_expression_ref (expression);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH_EXPRESSION]);
}

GtkExpression *
vc_drop_down_get_search_expression (VcDropDown *self)
{
  g_return_val_if_fail (VC_IS_DROP_DOWN (self), NULL);

  return self->search_expression;
}
