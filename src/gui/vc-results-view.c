/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-results-view.c: the results side of the window. Every figure comes from the estimate
 * model; this file only formats and lays out. */
#define G_LOG_DOMAIN "vc-results-view"

#include "config.h"

#include <glib/gi18n.h>

#include "vc-a11y.h"
#include "vc-breakdown-bar.h"
#include "vc-card-picker.h"
#include "vc-command-view.h"
#include "vc-compat.h"
#include "vc-component-row.h"
#include "vc-context-chart.h"
#include "vc-drop-down.h"
#include "vc-enums.h"
#include "vc-formula.h"
#include "vc-gpu-chart.h"
#include "vc-gpu-editor.h"
#include "vc-my-gpus.h"
#include "vc-input-bind.h"
#include "vc-results-view-private.h"
#include "vc-text.h"
#include "vc-units.h"

struct _VcResultsView
{
  GtkWidget parent_instance;

  VcEstimate *estimate;
  VcUnit unit;                     /* of every size shown */
  GtkSortListModel *sorted;
  VcScenario shown[VC_MAX_SCENARIOS];
  guint n_shown;
  GtkWidget *scenario_totals[VC_MAX_SCENARIOS];
  GtkWidget *scenario_marks[VC_MAX_SCENARIOS];

  gboolean chart_ready;            /* the first frame is drawn: the GPU chart may show */

  GtkWidget *box;
  GtkLabel *title;
  GtkLabel *total;
  GtkLabel *summary;
  GtkLabel *layout;
  GtkLabel *problem;
  GtkLabel *context_warning;
  GtkListBox *scenarios;
  GtkLabel *breakdown_heading;
  VcBreakdownBar *breakdown_bar;
  GtkColumnView *breakdown_view;
  GtkColumnViewColumn *component_column;
  GtkColumnViewColumn *size_column;
  GtkColumnViewColumn *share_column;
  VcGpuChart *gpu_chart;
  VcGpuEditor *gpu_editor;
  VcMyGpus *my_gpus;
  GtkMenuButton *gpu_editor_button;
  VcDropDown *vendor_filter;
  GPtrArray *vendors;          /* the filter's choices after "All vendors"; "" the user's cards */
  GtkWidget *context_section;
  VcCommandView *command_view;
  GtkLabel *context_heading;
  GtkLabel *context_note;
  GtkMenuButton *card_picker_button;
  VcCardPicker *card_picker;         /* NULL until its popover is first wanted, as gpu_editor */
  VcContextChart *context_chart;
};

enum {
  PROP_0,
  PROP_UNIT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (VcResultsView, vc_results_view, GTK_TYPE_WIDGET)

/* ---- breakdown column view ----------------------------------------------------------------- */

/* The columns, their sorters and cells are in the .ui; these format the cells. */

static char *
format_size (GtkListItem *item,
             double       bytes,
             VcUnit       unit)
{
  return vc_format_size (bytes, unit);
}

static char *
format_share (GtkListItem *item,
              double       share)
{
  /* TRANSLATORS: a share of the total memory, in percent */
  return g_strdup_printf (_("%.1f%%"), share * 100);
}

/* The formula is formatted when its tooltip shows, not on every recomputation. The handler's
 * data is the cell's list item. */
/* The row of the breakdown takes the focus, not its cells: it is named after its component
 * (GTK 4.8 has no accessible label for list items). Rows keep their cells when recycled. */
static void
name_breakdown_row (GtkWidget *label)
{
  GtkWidget *row = label;

  while (gtk_widget_get_parent (row) != NULL && gtk_widget_get_parent (gtk_widget_get_parent (row)) != NULL &&
         !GTK_IS_COLUMN_VIEW (gtk_widget_get_parent (gtk_widget_get_parent (row))))
    row = gtk_widget_get_parent (row);
  if (row != label)
    gtk_accessible_update_relation (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);
}

static gboolean
breakdown_query_tooltip (GtkWidget  *cell,
                         int         x,
                         int         y,
                         gboolean    keyboard,
                         GtkTooltip *tooltip,
                         gpointer    data)
{
  GtkWidget *view = gtk_widget_get_ancestor (cell, VC_TYPE_RESULTS_VIEW);
  VcComponentRow *row = GTK_IS_LIST_ITEM (data) ? gtk_list_item_get_item (data) : NULL;
  VcEstimate *estimate = view ? VC_RESULTS_VIEW (view)->estimate : NULL;
  g_autofree char *formula = NULL;

  if (row == NULL || estimate == NULL)
    return FALSE;
  formula = vc_formula_describe (estimate, vc_estimate_get_result (estimate)->selected,
                                 vc_component_row_get_component (row), VC_RESULTS_VIEW (view)->unit);
  gtk_tooltip_set_text (tooltip, formula);
  return TRUE;
}

/* The size cell: the row's bytes in the view's unit. The unit is the view's own setting, so the
 * cell binds to the view for it; the core's rows are only read. */
static void
size_cell_setup (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 gpointer                  data)
{
  GtkWidget *label = gtk_label_new (NULL);
  GtkExpression *params[2];

  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_add_css_class (label, "numeric");
  /* the formula and the values it used, on every cell of the row */
  gtk_widget_set_has_tooltip (label, TRUE);
  g_signal_connect (label, "query-tooltip", G_CALLBACK (breakdown_query_tooltip), item);
  params[0] = gtk_property_expression_new (VC_TYPE_COMPONENT_ROW,
                                           gtk_property_expression_new (GTK_TYPE_LIST_ITEM, NULL, "item"),
                                           "bytes");
  params[1] = gtk_property_expression_new (VC_TYPE_RESULTS_VIEW, gtk_object_expression_new (G_OBJECT (data)),
                                           "unit");
  gtk_expression_bind (gtk_cclosure_expression_new (G_TYPE_STRING, NULL, G_N_ELEMENTS (params), params,
                                                    G_CALLBACK (format_size), NULL, NULL),
                       label, "label", item);
  gtk_list_item_set_child (item, label);
}

static void
set_size_factory (VcResultsView *self)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (size_cell_setup), self);
  gtk_column_view_column_set_factory (self->size_column, factory);
}

static void
set_breakdown_model (VcResultsView *self)
{
  g_autoptr(GtkNoSelection) selection = NULL;

  self->sorted = gtk_sort_list_model_new (g_object_ref (vc_estimate_get_breakdown (self->estimate)),
                                          g_object_ref (gtk_column_view_get_sorter (self->breakdown_view)));
  selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->sorted)));
  gtk_column_view_set_model (self->breakdown_view, GTK_SELECTION_MODEL (selection));
}

/* ---- scenario table ------------------------------------------------------------------------ */

/* The scenario list selects nothing by itself: moving the focus through it (Tab, arrows) must
 * never change the model. A scenario is chosen by activating its row (click, Enter or Space);
 * the chosen one carries a check mark and the "selected" accessible state. */
static void
rebuild_scenarios (VcResultsView *self,
                   const VcResult *r)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->scenarios))) != NULL)
    gtk_list_box_remove (self->scenarios, child);

  self->n_shown = r->n_scenarios;
  for (guint i = 0; i < r->n_scenarios; i++)
    {
      GtkWidget *row = gtk_list_box_row_new ();
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
      GtkWidget *mark = gtk_image_new_from_icon_name ("object-select-symbolic");
      GtkWidget *name = gtk_label_new (vc_scenario_name (r->scenarios[i].id));
      GtkWidget *total = gtk_label_new (NULL);

      self->shown[i] = r->scenarios[i].id;
      gtk_widget_set_hexpand (name, TRUE);
      gtk_label_set_xalign (GTK_LABEL (name), 0);
      gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
      gtk_label_set_xalign (GTK_LABEL (total), 1);
      gtk_widget_add_css_class (total, "numeric");
      gtk_box_append (GTK_BOX (box), mark);
      gtk_box_append (GTK_BOX (box), name);
      gtk_box_append (GTK_BOX (box), total);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
      vc_widget_set_tooltip_text (row, _("Click, or press Enter or Space, to show this scenario"));
      gtk_accessible_update_relation (GTK_ACCESSIBLE (row),
                                      GTK_ACCESSIBLE_RELATION_LABELLED_BY, name, total, NULL, -1);
      g_object_set_data (G_OBJECT (row), "vc-scenario", GINT_TO_POINTER (r->scenarios[i].id));
      gtk_list_box_append (self->scenarios, row);
      self->scenario_totals[i] = total;
      self->scenario_marks[i] = mark;
    }
}

static void
update_scenarios (VcResultsView *self)
{
  const VcResult *r = vc_estimate_get_result (self->estimate);
  VcUnit unit = self->unit;
  gboolean same = r->n_scenarios == self->n_shown;

  for (guint i = 0; same && i < r->n_scenarios; i++)
    same = self->shown[i] == r->scenarios[i].id;

  if (!same)
    rebuild_scenarios (self, r);
  for (guint i = 0; i < r->n_scenarios; i++)
    {
      g_autofree char *size = vc_format_size (r->scenarios[i].total, unit);
      GtkWidget *row = GTK_WIDGET (gtk_list_box_get_row_at_index (self->scenarios, i));
      gboolean chosen = i == r->selected;

      gtk_label_set_label (GTK_LABEL (self->scenario_totals[i]), size);
      gtk_widget_set_opacity (self->scenario_marks[i], chosen ? 1.0 : 0.0);
      if (chosen)
        gtk_widget_add_css_class (row, "vc-chosen");
      else
        gtk_widget_remove_css_class (row, "vc-chosen");
      gtk_accessible_update_state (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_STATE_SELECTED, chosen, -1);
    }
}

static void
scenario_activated (GtkListBox    *box,
                    GtkListBoxRow *row,
                    VcResultsView *self)
{
  if (row == NULL || self->estimate == NULL)
    return;
  vc_estimate_select_scenario (self->estimate,
                               GPOINTER_TO_INT (g_object_get_data (G_OBJECT (row), "vc-scenario")));
}


/* ---- headline ------------------------------------------------------------------------------ */

/* Parameters, KV cache per token, where training peaks and the overhead, in one line. */
static char *
summary_text (VcResultsView *self,
              VcUnit         unit)
{
  const VcResult *r = vc_estimate_get_result (self->estimate);
  const VcScenarioResult *sc = &r->scenarios[r->selected];
  const VcInputs *in = vc_estimate_get_inputs (self->estimate);
  g_autofree char *params = NULL, *overhead = NULL;
  GString *summary = g_string_new (NULL);

  params = vc_format_count (r->parameters);
  g_string_append_printf (summary, _("%s parameters"), params);
  if (r->active_parameters != r->parameters)
    {
      g_autofree char *active = vc_format_count (r->active_parameters);
      g_string_append_printf (summary, _(", %s activated"), active);
    }
  if (in->mode == VC_MODE_TRAINING)
    {
      g_autofree char *trainable = vc_format_count (sc->trainable_parameters);
      g_string_append_printf (summary, _(" · %s trainable"), trainable);
    }
  if (in->mode == VC_MODE_INFERENCE && r->kv_bytes_per_token >= 0)
    {
      g_autofree char *kv = vc_format_size (r->kv_bytes_per_token, unit);
      g_string_append_printf (summary, _(" · KV cache %s per token"), kv);
    }
  if (sc->peak_phase == VC_PHASE_FORWARD)
    g_string_append (summary, _(" · peak at the start of the backward pass, before any gradient is allocated"));
  else if (sc->peak_phase == VC_PHASE_BACKWARD)
    g_string_append (summary, _(" · peak at the end of the backward pass"));
  overhead = vc_format_size (r->overhead_bytes, unit);
  g_string_append_printf (summary, _(" · %s overhead per GPU"), overhead);
  if (vc_estimator_models_reserve (in))
    {
      g_autofree char *reserved = vc_format_size (sc->reserved, unit);
      g_string_append_printf (summary, _(" · %s reserved by PyTorch's caching allocator, which a GPU must hold"), reserved);
    }
  return g_string_free (summary, FALSE);
}

/* A layout over several GPUs or host memory: the busiest GPU, every GPU, system RAM.
 * Returns whether the layout line is shown. */
static gboolean
update_layout_line (VcResultsView *self,
                    VcUnit         unit)
{
  const VcInputs *in = vc_estimate_get_inputs (self->estimate);
  VcLayout effective;
  const VcLayoutResult *lr = vc_estimate_get_layout_result (self->estimate);
  g_autofree char *how = NULL, *per_gpu = NULL, *all = NULL;
  g_autoptr(GString) text = NULL;

  if (lr == NULL || vc_layout_is_default (&in->layout))
    return FALSE;
  vc_layout_get_effective (in, &effective);
  how = vc_layout_describe (&effective, in->mode, in->method, TRUE);
  per_gpu = vc_format_size (lr->total, unit);
  all = vc_format_size (lr->all_total, unit);
  text = g_string_new (NULL);
  if (lr->n_gpus == 1)
    g_string_append_printf (text, _("%s on the GPU"), per_gpu);
  else
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s on the busiest of %u GPU",
                                               "%s on the busiest of %u GPUs", lr->n_gpus),
                            per_gpu, lr->n_gpus);
  if (*how)
    g_string_append_printf (text, " (%s)", how);
  if (lr->n_gpus > 1)
    g_string_append_printf (text, _(" · %s on all GPUs"), all);
  if (lr->host_bytes > 0)
    {
      g_autofree char *host = vc_format_size (lr->host_bytes, unit);
      g_string_append_printf (text, _(" · %s of system RAM"), host);
    }
  gtk_label_set_label (self->layout, text->str);
  return TRUE;
}

/* Inputs that do not go together have no figures: the message alone, never beside them. */
static void
update_validity (VcResultsView *self,
                 gboolean       layout_shown)
{
  g_autoptr(GError) error = NULL;
  gboolean valid = vc_estimate_check (self->estimate, &error);

  if (!valid)
    {
      g_autofree char *text = g_strdup_printf (_("These inputs do not go together: %s"), error->message);
      g_autofree char *shown = vc_escape_controls (text, TRUE);

      gtk_label_set_label (self->problem, shown);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->problem), !valid);
  for (GtkWidget *child = gtk_widget_get_first_child (self->box); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (child == GTK_WIDGET (self->title) || child == GTK_WIDGET (self->problem))
        continue;
      if (child == GTK_WIDGET (self->layout))
        gtk_widget_set_visible (child, valid && layout_shown);
      else if (child == GTK_WIDGET (self->context_warning))
        gtk_widget_set_visible (child, valid && *gtk_label_get_label (self->context_warning) != '\0');
      else if (child == GTK_WIDGET (self->gpu_chart))
        gtk_widget_set_visible (child, valid && self->chart_ready);
      else
        gtk_widget_set_visible (child, valid);
    }
}

/* The headings of the breakdown and of the chart, which follow the scenario and the mode. */
static void
update_headings (VcResultsView          *self,
                 const VcScenarioResult *sc,
                 VcMode                  mode)
{
  g_autofree char *heading = g_strdup_printf (_("Breakdown of %s"), vc_scenario_name (sc->id));

  gtk_label_set_label (self->breakdown_heading, heading);
  if (mode == VC_MODE_TRAINING)
    {
      gtk_label_set_label (self->context_heading, _("Memory and Batch Size"));
      gtk_label_set_label (self->context_note,
                           _("Memory of one GPU as the batch grows, the other inputs as they are. "
                             "Lines show the capacity of the cards you choose; the dot is the current batch. "
                             "Point at the chart, or focus it and use the arrow keys, to read the figures."));
    }
  else
    {
      gtk_label_set_label (self->context_heading, _("Memory and Context Length"));
      gtk_label_set_label (self->context_note,
                           _("Memory of one GPU as the sequence grows, up to the model's maximum context "
                             "(or 1M tokens when it is unknown), the other inputs as they are. "
                             "Lines show the capacity of the cards you choose; the dot is the current sequence. "
                             "Point at the chart, or focus it and use the arrow keys, to read the figures."));
    }
}

static void
update_headline (VcResultsView *self)
{
  const VcResult *r = vc_estimate_get_result (self->estimate);
  const VcScenarioResult *sc = &r->scenarios[r->selected];
  VcUnit unit = self->unit;
  const char *model = vc_estimate_get_model_name (self->estimate);
  g_autofree char *title = NULL, *total = NULL, *summary = NULL, *warning = NULL, *shown_model = NULL;
  gboolean layout_shown;

  /* a name read from a file: its control characters escaped; a long one ellipsized, whole in
   * the tooltip */
  shown_model = vc_escape_controls (model, FALSE);
  title = g_strdup_printf ("%s · %s", shown_model[0] ? shown_model : C_("model", "Custom model"),
                           vc_scenario_name (sc->id));
  gtk_label_set_label (self->title, title);
  vc_widget_set_tooltip_text (GTK_WIDGET (self->title), title);
  total = vc_format_size (sc->total, unit);
  gtk_label_set_label (self->total, total);
  summary = summary_text (self, unit);
  gtk_label_set_label (self->summary, summary);
  layout_shown = update_layout_line (self, unit);

  warning = vc_estimate_dup_context_warning (self->estimate);
  gtk_label_set_label (self->context_warning, warning ? warning : "");
  gtk_widget_set_visible (GTK_WIDGET (self->context_warning), warning != NULL);

  update_validity (self, layout_shown);
  update_headings (self, sc, vc_estimate_get_inputs (self->estimate)->mode);
}

static void
estimate_changed (VcResultsView *self)
{
  GtkSorter *sorter = gtk_column_view_get_sorter (self->breakdown_view);

  update_headline (self);
  update_scenarios (self);
  /* rows change in place: the sorted order may have changed with them */
  if (sorter != NULL)
    gtk_sorter_changed (sorter, GTK_SORTER_CHANGE_DIFFERENT);
}

void
vc_results_view_set_estimate (VcResultsView *self,
                              VcEstimate    *estimate)
{
  g_return_if_fail (VC_IS_RESULTS_VIEW (self));
  g_return_if_fail (VC_IS_ESTIMATE (estimate));
  g_return_if_fail (self->estimate == NULL);

  self->estimate = g_object_ref (estimate);
  vc_chart_set_estimate (VC_CHART (self->breakdown_bar), estimate);
  vc_chart_set_estimate (VC_CHART (self->gpu_chart), estimate);
  vc_chart_set_estimate (VC_CHART (self->context_chart), estimate);
  vc_command_view_set_estimate (self->command_view, estimate);
  vc_my_gpus_set_estimate (self->my_gpus, estimate);
  set_breakdown_model (self);
  g_signal_connect_object (estimate, "changed", G_CALLBACK (estimate_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::model-name", G_CALLBACK (update_headline), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (estimate, "notify::preset", G_CALLBACK (update_headline), self, G_CONNECT_SWAPPED);
  estimate_changed (self);
}

/**
 * vc_results_view_set_unit:
 *
 * The unit every size is shown in, a view setting: the view and its charts redraw.
 */
void
vc_results_view_set_unit (VcResultsView *self,
                          VcUnit         unit)
{
  g_return_if_fail (VC_IS_RESULTS_VIEW (self));

  if (self->unit == unit)
    return;
  self->unit = unit;
  vc_chart_set_unit (VC_CHART (self->breakdown_bar), unit);
  vc_chart_set_unit (VC_CHART (self->gpu_chart), unit);
  vc_chart_set_unit (VC_CHART (self->context_chart), unit);
  if (self->gpu_editor != NULL)
    vc_gpu_editor_set_unit (self->gpu_editor, unit);
  vc_my_gpus_set_unit (self->my_gpus, unit);
  if (self->estimate != NULL)
    estimate_changed (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNIT]);
}

static void
vc_results_view_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_UNIT:
      g_value_set_enum (value, VC_RESULTS_VIEW (object)->unit);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
vc_results_view_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_UNIT:
      vc_results_view_set_unit (VC_RESULTS_VIEW (object), g_value_get_enum (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* ---- vendor filter of the GPU comparison -------------------------------------------------- */

static void
vendor_filter_changed (VcResultsView *self)
{
  guint pos = vc_drop_down_get_selected (self->vendor_filter);

  vc_gpu_chart_set_vendor_filter (self->gpu_chart,
                                  pos == 0 || pos == GTK_INVALID_LIST_POSITION || pos > self->vendors->len
                                  ? NULL : self->vendors->pdata[pos - 1]);
}

/* "All vendors", the catalog's vendors (the major ones first, as the chart groups them), then
 * the user's own cards */
static void
setup_vendor_filter (VcResultsView *self)
{
  static const char *first[] = { "NVIDIA", "AMD", "Intel", "Apple" };
  g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);
  guint n;
  const VcGpu *gpus = vc_gpus_get_all (&n);

  self->vendors = g_ptr_array_new ();
  for (guint k = 0; k < G_N_ELEMENTS (first); k++)
    for (guint i = 0; i < n; i++)
      if (g_str_equal (gpus[i].vendor, first[k]))
        {
          g_ptr_array_add (self->vendors, (gpointer) first[k]);
          break;
        }
  for (guint i = 0; i < n; i++)
    if (!g_ptr_array_find_with_equal_func (self->vendors, gpus[i].vendor, g_str_equal, NULL))
      g_ptr_array_add (self->vendors, gpus[i].vendor);
  g_ptr_array_add (self->vendors, (gpointer) "");

  gtk_string_list_append (labels, _("All vendors"));
  for (guint k = 0; k < self->vendors->len; k++)
    {
      const char *v = self->vendors->pdata[k];
      gtk_string_list_append (labels, *v ? v : _("Your GPUs"));
    }
  vc_drop_down_set_model (self->vendor_filter, G_LIST_MODEL (labels));
  vc_drop_down_set_selected (self->vendor_filter, 0);
  g_signal_connect_swapped (self->vendor_filter, "notify::selected", G_CALLBACK (vendor_filter_changed), self);
  vc_a11y_name (GTK_WIDGET (self->vendor_filter), _("Vendor of the GPUs shown"));
}

/* The model of the command area as its files name it (NULL: the built-in model's repository) */
void
vc_results_view_set_command_model (VcResultsView *self,
                                   const char    *spec)
{
  g_return_if_fail (VC_IS_RESULTS_VIEW (self));

  vc_command_view_set_model (self->command_view, spec);
}

static void
vc_results_view_dispose (GObject *object)
{
  VcResultsView *self = VC_RESULTS_VIEW (object);

  /* in the menu buttons' popovers, which go with the template */
  self->gpu_editor = NULL;
  self->card_picker = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (self), VC_TYPE_RESULTS_VIEW);
  g_clear_object (&self->sorted);
  g_clear_object (&self->estimate);
  g_clear_pointer (&self->vendors, g_ptr_array_unref);
  G_OBJECT_CLASS (vc_results_view_parent_class)->dispose (object);
}

static void
vc_results_view_class_init (VcResultsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = vc_results_view_dispose;
  object_class->get_property = vc_results_view_get_property;
  object_class->set_property = vc_results_view_set_property;

  properties[PROP_UNIT] =
    g_param_spec_enum ("unit", NULL, NULL, VC_TYPE_UNIT, VC_UNIT_GB,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (VC_TYPE_BREAKDOWN_BAR);
  g_type_ensure (VC_TYPE_COMPONENT_ROW);
  g_type_ensure (VC_TYPE_GPU_CHART);
  g_type_ensure (VC_TYPE_CONTEXT_CHART);
  g_type_ensure (VC_TYPE_DROP_DOWN);
  g_type_ensure (VC_TYPE_COMMAND_VIEW);
  g_type_ensure (VC_TYPE_MY_GPUS);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/vramcalc/VramCalculator/vc-results-view.ui");
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, box);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, command_view);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, title);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, total);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, summary);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, layout);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, problem);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, context_warning);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, scenarios);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, breakdown_heading);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, breakdown_bar);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, breakdown_view);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, component_column);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, size_column);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, share_column);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, gpu_chart);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, gpu_editor_button);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, my_gpus);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, context_section);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, context_heading);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, context_note);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, card_picker_button);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, context_chart);
  gtk_widget_class_bind_template_callback (widget_class, format_share);
  gtk_widget_class_bind_template_callback (widget_class, breakdown_query_tooltip);
  gtk_widget_class_bind_template_child (widget_class, VcResultsView, vendor_filter);
  gtk_widget_class_bind_template_callback (widget_class, name_breakdown_row);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

/* ---- popovers made when first wanted ------------------------------------------------------- */

/**
 * _vc_results_view_ensure_gpu_editor:
 *
 * Returns: (transfer none): the editor of the user's own GPUs, in the popover of "Your GPUs…",
 *   made now if it was not yet
 */
VcGpuEditor *
_vc_results_view_ensure_gpu_editor (VcResultsView *self)
{
  GtkWidget *popover;

  g_return_val_if_fail (VC_IS_RESULTS_VIEW (self), NULL);
  if (self->gpu_editor != NULL)
    return self->gpu_editor;

  self->gpu_editor = VC_GPU_EDITOR (g_object_new (VC_TYPE_GPU_EDITOR, NULL));
  vc_gpu_editor_set_unit (self->gpu_editor, self->unit);
  if (self->estimate != NULL)
    vc_gpu_editor_set_estimate (self->gpu_editor, self->estimate);
  popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (popover), GTK_WIDGET (self->gpu_editor));
  gtk_menu_button_set_popover (self->gpu_editor_button, popover);
  return self->gpu_editor;
}

/**
 * _vc_results_view_ensure_card_picker:
 *
 * Returns: (transfer none): the check boxes of the cards the memory chart draws, in the popover
 *   of "Cards on the Chart…", made now if they were not yet
 */
VcCardPicker *
_vc_results_view_ensure_card_picker (VcResultsView *self)
{
  GtkWidget *popover, *scrolled;

  g_return_val_if_fail (VC_IS_RESULTS_VIEW (self), NULL);
  if (self->card_picker != NULL)
    return self->card_picker;

  self->card_picker = VC_CARD_PICKER (g_object_new (VC_TYPE_CARD_PICKER, NULL));
  if (self->estimate != NULL)
    {
      vc_card_picker_set_estimate (self->card_picker, self->estimate);
      vc_card_picker_populate (self->card_picker);
    }
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 420);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->card_picker));
  popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (popover), scrolled);
  gtk_menu_button_set_popover (self->card_picker_button, popover);
  return self->card_picker;
}

static void
gpu_editor_wanted (GtkMenuButton *button,
                   gpointer       data)
{
  _vc_results_view_ensure_gpu_editor (VC_RESULTS_VIEW (data));
}

static void
card_picker_wanted (GtkMenuButton *button,
                    gpointer       data)
{
  _vc_results_view_ensure_card_picker (VC_RESULTS_VIEW (data));
}

/* Below the fold of the first frame: the memory chart's section. Shown once the first frame
 * is out. */
static gboolean
finish_after_first_frame (gpointer data)
{
  VcResultsView *self = data;

  if (self->estimate == NULL)
    return G_SOURCE_REMOVE;
  for (GtkWidget *child = gtk_widget_get_first_child (self->context_section); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    gtk_widget_set_visible (child, TRUE);
  return G_SOURCE_REMOVE;
}

/* The GPU chart, 18 rows of text and bars mostly below the fold, is laid out and drawn after
 * the window's first frame: the window shows sooner. */
static void
show_gpu_chart (GdkFrameClock *clock,
                VcResultsView *self)
{
  g_signal_handlers_disconnect_by_func (clock, show_gpu_chart, self);
  self->chart_ready = TRUE;
  update_headline (self);
  /* from the main loop, once the frame has gone to the display */
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, finish_after_first_frame, g_object_ref (self), g_object_unref);
}

static void
results_realized (VcResultsView *self)
{
  if (!self->chart_ready)
    g_signal_connect_object (gtk_widget_get_frame_clock (GTK_WIDGET (self)), "after-paint",
                             G_CALLBACK (show_gpu_chart), self, 0);
}

/* Set after the template is built, not in the .ui: see vc_widget_set_tooltip_text() */
static const VcTooltip tooltips[] = {
  { "vendor_filter", N_("Show one vendor’s GPUs only") },
  { "gpu_editor_button", N_("Add GPUs of your own to the comparison, or remove them") },
  { "card_picker_button", N_("Choose the GPUs whose capacity the chart draws") },
};

static void
vc_results_view_init (VcResultsView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  set_size_factory (self);
  vc_widget_set_template_tooltips (GTK_WIDGET (self), VC_TYPE_RESULTS_VIEW, tooltips, G_N_ELEMENTS (tooltips));
  vc_column_view_column_set_id (self->component_column, "component");
  vc_column_view_column_set_id (self->size_column, "size");
  vc_column_view_column_set_id (self->share_column, "share");
  g_signal_connect (self->scenarios, "row-activated", G_CALLBACK (scenario_activated), self);
  g_signal_connect (self, "realize", G_CALLBACK (results_realized), NULL);
  gtk_menu_button_set_create_popup_func (self->gpu_editor_button, gpu_editor_wanted, self, NULL);
  gtk_menu_button_set_create_popup_func (self->card_picker_button, card_picker_wanted, self, NULL);
  vc_a11y_named_by_own_label (GTK_WIDGET (self->gpu_editor_button));
  vc_a11y_named_by_own_label (GTK_WIDGET (self->card_picker_button));
  setup_vendor_filter (self);
}
