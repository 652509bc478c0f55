/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-profile.c: reading, validating and writing estimate profiles, and the open profile
 * (file, name, notes, unsaved changes) shared by the window and vramcalc. */
#define G_LOG_DOMAIN "vc-profile"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <math.h>

#include "vc-atomic-file.h"
#include "vc-enums.h"
#include "vc-error.h"
#include "vc-json-input.h"
#include "vc-profile.h"
#include "vc-units.h"

/* ---- writing ------------------------------------------------------------------------------- */

static void
add_input (JsonBuilder *b,
           VcEstimate  *estimate,
           GParamSpec  *pspec)
{
  g_auto(GValue) v = G_VALUE_INIT;

  g_value_init (&v, pspec->value_type);
  g_object_get_property (G_OBJECT (estimate), pspec->name, &v);
  json_builder_set_member_name (b, pspec->name);

  if (G_IS_PARAM_SPEC_ENUM (pspec))
    json_builder_add_string_value (b, vc_enum_nick (pspec->value_type, g_value_get_enum (&v)));
  else if (G_IS_PARAM_SPEC_FLAGS (pspec))
    {
      g_auto(GStrv) nicks = vc_flags_to_nicks (pspec->value_type, g_value_get_flags (&v));

      json_builder_begin_array (b);
      for (guint i = 0; nicks[i] != NULL; i++)
        json_builder_add_string_value (b, nicks[i]);
      json_builder_end_array (b);
    }
  else if (G_IS_PARAM_SPEC_BOOLEAN (pspec))
    json_builder_add_boolean_value (b, g_value_get_boolean (&v));
  else if (G_IS_PARAM_SPEC_UINT (pspec))
    json_builder_add_int_value (b, g_value_get_uint (&v));
  else if (G_IS_PARAM_SPEC_DOUBLE (pspec))
    {
      double d = g_value_get_double (&v);

      /* whole numbers as integers (7000000000, not 7000000000.0); doubles round-trip exactly */
      if (d == floor (d) && fabs (d) < 9007199254740992.0)
        json_builder_add_int_value (b, (gint64) d);
      else
        json_builder_add_double_value (b, d);
    }
  else if (G_IS_PARAM_SPEC_STRING (pspec))
    json_builder_add_string_value (b, g_value_get_string (&v) ? g_value_get_string (&v) : "");
  else
    g_critical ("input %s has a type profiles cannot store", pspec->name);
}

/**
 * vc_profile_serialize:
 * @estimate: the estimate whose inputs are written
 * @name: (nullable): the profile's name
 * @notes: (nullable): free notes
 * @unit: the display unit, kept with the inputs
 * @length: (out) (optional): length of the result in bytes
 *
 * Returns: (transfer full): the profile as UTF-8 JSON text, ending with a newline
 */
char *
vc_profile_serialize (VcEstimate *estimate,
                      const char *name,
                      const char *notes,
                      VcUnit      unit,
                      gsize      *length)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree GParamSpec **inputs = NULL;
  g_autofree char *text = NULL, *raw = NULL;
  /* what is saved must reopen: bytes that are not UTF-8 become U+FFFD */
  g_autofree char *valid_name = g_utf8_make_valid (name ? name : "", -1);
  g_autofree char *valid_notes = g_utf8_make_valid (notes ? notes : "", -1);
  gsize len = 0;
  guint n;

  g_return_val_if_fail (VC_IS_ESTIMATE (estimate), NULL);

  inputs = vc_estimate_list_inputs (&n);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "format");
  json_builder_add_string_value (b, VC_PROFILE_FORMAT);
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, VC_PROFILE_VERSION);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, valid_name);
  json_builder_set_member_name (b, "notes");
  json_builder_add_string_value (b, valid_notes);
  json_builder_set_member_name (b, "inputs");
  json_builder_begin_object (b);
  for (guint i = 0; i < n; i++)
    {
      add_input (b, estimate, inputs[i]);
      if (g_str_equal (inputs[i]->name, VC_UNIT_FOLLOWS_INPUT))
        {
          json_builder_set_member_name (b, "unit");
          json_builder_add_string_value (b, vc_unit_to_string (unit));
        }
    }
  json_builder_end_object (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  raw = json_generator_to_data (gen, NULL);
  /* json-glib 1.6 would write 2e-08 as "2e-08.0", which does not reopen */
  text = vc_json_fix_numbers (raw);
  len = strlen (text);
  if (length)
    *length = len + 1;
  return g_strconcat (text, "\n", NULL);
}

/* ---- reading ------------------------------------------------------------------------------- */

static const char *
describe_node (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    return _("an object");
  if (JSON_NODE_HOLDS_ARRAY (node))
    return _("a list");
  if (JSON_NODE_HOLDS_NULL (node))
    return "null";
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_BOOLEAN: return _("true or false");
    case G_TYPE_STRING: return _("text");
    default: return _("a number");
    }
}

static gboolean
wrong_type (JsonNode    *node,
            const char  *expected,
            GError     **error)
{
  /* TRANSLATORS: “expected a whole number, found text”; the field is put in front */
  g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE, _("expected %s, found %s"),
               expected, describe_node (node));
  return FALSE;
}

static gboolean
node_is (JsonNode *node,
         GType     type)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

static gboolean
node_is_number (JsonNode *node)
{
  return node_is (node, G_TYPE_INT64) || node_is (node, G_TYPE_DOUBLE);
}

static gboolean
apply_input (VcEstimate  *scratch,
             GParamSpec  *pspec,
             JsonNode    *node,
             GHashTable  *huge,
             GError     **error)
{
  const char *name = pspec->name;
  g_auto(GValue) v = G_VALUE_INIT;

  /* an integer json-glib could not hold (it wraps around: -99999999999999999999 reads as 1):
   * the literal as written goes through the range check, which refuses it */
  if (huge != NULL && node_is (node, G_TYPE_INT64) && g_hash_table_contains (huge, name) &&
      (G_IS_PARAM_SPEC_UINT (pspec) || G_IS_PARAM_SPEC_DOUBLE (pspec)))
    return vc_estimate_set_from_string (scratch, name, g_hash_table_lookup (huge, name), error);

  if (G_IS_PARAM_SPEC_ENUM (pspec))
    {
      if (!node_is (node, G_TYPE_STRING))
        return wrong_type (node, _("text"), error);
      return vc_estimate_set_from_string (scratch, name, json_node_get_string (node), error);
    }
  if (G_IS_PARAM_SPEC_FLAGS (pspec))
    {
      g_autoptr(GString) list = g_string_new (NULL);
      JsonArray *array;

      if (node_is (node, G_TYPE_STRING))
        return vc_estimate_set_from_string (scratch, name, json_node_get_string (node), error);
      if (!JSON_NODE_HOLDS_ARRAY (node))
        return wrong_type (node, _("a list of names"), error);
      array = json_node_get_array (node);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *item = json_array_get_element (array, i);

          if (!node_is (item, G_TYPE_STRING))
            return wrong_type (item, _("a list of names"), error);
          /* commas inside a name would smuggle in several */
          if (strchr (json_node_get_string (item), ',') != NULL)
            {
              g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                           _("“%s” is not valid for %s"), json_node_get_string (item), name);
              return FALSE;
            }
          g_string_append_printf (list, "%s%s", i ? "," : "", json_node_get_string (item));
        }
      return vc_estimate_set_from_string (scratch, name, list->str, error);
    }
  if (G_IS_PARAM_SPEC_BOOLEAN (pspec))
    {
      if (!node_is (node, G_TYPE_BOOLEAN))
        return wrong_type (node, _("true or false"), error);
      g_value_init (&v, G_TYPE_BOOLEAN);
      g_value_set_boolean (&v, json_node_get_boolean (node));
      return vc_estimate_set_value (scratch, name, &v, error);
    }
  if (G_IS_PARAM_SPEC_UINT (pspec))
    {
      g_autofree char *text = NULL;

      if (!node_is_number (node))
        return wrong_type (node, _("a whole number"), error);
      /* through the text path, whose range check sees the number before it is cut to 32 bits */
      if (node_is (node, G_TYPE_INT64))
        text = g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
      else
        {
          char buf[G_ASCII_DTOSTR_BUF_SIZE];
          text = g_strdup (g_ascii_dtostr (buf, sizeof buf, json_node_get_double (node)));
        }
      return vc_estimate_set_from_string (scratch, name, text, error);
    }
  if (G_IS_PARAM_SPEC_DOUBLE (pspec))
    {
      if (!node_is_number (node))
        return wrong_type (node, _("a number"), error);
      g_value_init (&v, G_TYPE_DOUBLE);
      g_value_set_double (&v, json_node_get_double (node));
      return vc_estimate_set_value (scratch, name, &v, error);
    }
  if (G_IS_PARAM_SPEC_STRING (pspec))
    {
      if (JSON_NODE_HOLDS_NULL (node))
        return vc_estimate_set_from_string (scratch, name, "", error);
      if (!node_is (node, G_TYPE_STRING))
        return wrong_type (node, _("text"), error);
      return vc_estimate_set_from_string (scratch, name, json_node_get_string (node), error);
    }
  g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE, _("%s cannot be read from a profile"), name);
  return FALSE;
}

static gboolean
read_optional_text (JsonObject  *object,
                    const char  *member,
                    char       **out,
                    GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      *out = g_strdup ("");
      return TRUE;
    }
  if (!node_is (node, G_TYPE_STRING))
    {
      wrong_type (node, _("text"), error);
      g_prefix_error (error, "%s: ", member);
      return FALSE;
    }
  *out = g_strdup (json_node_get_string (node));
  return TRUE;
}

static gboolean
check_format (JsonObject  *object,
              GError     **error)
{
  JsonNode *node = json_object_get_member (object, "format");

  if (node == NULL)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_PARSE,
                   _("format: missing; a profile has “format”: “%s”"), VC_PROFILE_FORMAT);
      return FALSE;
    }
  if (!node_is (node, G_TYPE_STRING) || !g_str_equal (json_node_get_string (node), VC_PROFILE_FORMAT))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_PARSE,
                   _("format: this is not a VRAM Calculator profile (expected “%s”)"),
                   VC_PROFILE_FORMAT);
      return FALSE;
    }
  return TRUE;
}

/* The format version, from 1 to VC_PROFILE_VERSION; 0 with @error set when it is not one. */
static gint64
read_version (JsonObject  *object,
              GHashTable  *huge,
              GError     **error)
{
  JsonNode *node = json_object_get_member (object, "version");

  if (node == NULL)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_PARSE, _("version: missing; accepted: a whole number up to %d"),
                   VC_PROFILE_VERSION);
      return 0;
    }
  if (!node_is (node, G_TYPE_INT64))
    {
      wrong_type (node, _("a whole number"), error);
      g_prefix_error (error, "version: ");
      return 0;
    }
  if (huge != NULL && g_hash_table_contains (huge, "version"))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_PARSE,
                   _("version: %s is not a format version; accepted: a whole number from 1 to %d"),
                   (const char *) g_hash_table_lookup (huge, "version"), VC_PROFILE_VERSION);
      return 0;
    }
  if (json_node_get_int (node) > VC_PROFILE_VERSION)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_VERSION,
                   _("version: the profile has format version %lld, from a newer "
                     "VRAM Calculator; this version reads versions up to %d"),
                   (long long) json_node_get_int (node), VC_PROFILE_VERSION);
      return 0;
    }
  if (json_node_get_int (node) < 1)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_PARSE,
                   _("version: %lld is not a format version; accepted: a whole number from 1 to %d"),
                   (long long) json_node_get_int (node), VC_PROFILE_VERSION);
      return 0;
    }
  return json_node_get_int (node);
}

static JsonObject *
get_inputs_object (JsonObject  *object,
                   GError     **error)
{
  JsonNode *node = json_object_get_member (object, "inputs");

  if (node == NULL)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_PARSE, _("inputs: missing"));
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      wrong_type (node, _("an object"), error);
      g_prefix_error (error, "inputs: ");
      return NULL;
    }
  return json_node_get_object (node);
}

/* the display unit, read where the inputs list it */
static gboolean
read_unit (JsonObject  *values,
           VcUnit      *unit,
           GError     **error)
{
  JsonNode *node = json_object_get_member (values, "unit");

  if (node == NULL)
    return TRUE;
  if (!node_is (node, G_TYPE_STRING))
    wrong_type (node, _("text"), error);
  else if (vc_unit_from_string (json_node_get_string (node), unit, error))
    return TRUE;
  g_prefix_error (error, "inputs.unit: ");
  return FALSE;
}

/* "engine-version" names SGLang's source in a profile serving with SGLang, as vramcalc's
 * --engine-version does with --engine sglang: the input "sglang-version" sets */
static gboolean
names_sglang_source (JsonObject *values,
                     JsonNode   *node)
{
  JsonNode *engine = json_object_get_member (values, "engine");
  g_autoptr(GEnumClass) klass = g_type_class_ref (VC_TYPE_SGLANG_VERSION);

  return engine != NULL && node_is (engine, G_TYPE_STRING) && g_str_equal (json_node_get_string (engine), "sglang") &&
         node_is (node, G_TYPE_STRING) && g_enum_get_value_by_nick (klass, json_node_get_string (node)) != NULL;
}

static gboolean
apply_sglang_source (VcEstimate  *scratch,
                     JsonObject  *values,
                     JsonNode    *node,
                     GError     **error)
{
  JsonNode *other = json_object_get_member (values, "sglang-version");
  const char *source = json_node_get_string (node);

  if (other != NULL && node_is (other, G_TYPE_STRING) && !g_str_equal (json_node_get_string (other), source))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   /* TRANSLATORS: the SGLang sources a profile names in engine-version and in sglang-version */
                   _("with the engine sglang it names SGLang’s source, as sglang-version does: %s and %s disagree; "
                     "accepted: one of them, or both the same"),
                   source, json_node_get_string (other));
      return FALSE;
    }
  return vc_estimate_set_from_string (scratch, "sglang-version", source, error);
}

/* The preset first: it sets the architecture and parameter counts, which the profile's own
 * values then override (an override that differs leaves the preset, as in the window). */
static gboolean
apply_inputs (VcEstimate  *scratch,
              JsonObject  *values,
              GHashTable  *huge,
              VcUnit      *unit,
              GError     **error)
{
  g_autofree GParamSpec **inputs = NULL;
  JsonNode *node;
  guint n;

  inputs = vc_estimate_list_inputs (&n);
  node = json_object_get_member (values, "preset");
  if (node != NULL)
    {
      for (guint i = 0; i < n; i++)
        if (g_str_equal (inputs[i]->name, "preset") &&
            !apply_input (scratch, inputs[i], node, huge, error))
          {
            g_prefix_error (error, "inputs.preset: ");
            return FALSE;
          }
    }
  for (guint i = 0; i < n; i++)
    {
      if (g_str_equal (inputs[i]->name, "preset"))
        continue;
      node = json_object_get_member (values, inputs[i]->name);
      if (node != NULL && g_str_equal (inputs[i]->name, "engine-version") && names_sglang_source (values, node))
        {
          if (!apply_sglang_source (scratch, values, node, error))
            {
              g_prefix_error (error, "inputs.engine-version: ");
              return FALSE;
            }
          continue;
        }
      if (node != NULL && !apply_input (scratch, inputs[i], node, huge, error))
        {
          g_prefix_error (error, "inputs.%s: ", inputs[i]->name);
          return FALSE;
        }
      if (g_str_equal (inputs[i]->name, VC_UNIT_FOLLOWS_INPUT) && !read_unit (values, unit, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * vc_profile_read_old_rope_table:
 * @estimate: inputs just read from what a version before format 3 wrote
 *
 * Before rope-table-kind 5 ("typed in", format version 3), an architecture typed in had kind 0
 * (plain) and no table rows or rotary dimension, which that version counted as no table: 0 bytes
 * under vLLM and SGLang without a word. Read now, kind 0 means "no table", so such inputs are
 * read as a typed-in architecture is today (kind 5: a Llama-shaped table, which the estimate's
 * warnings name). Only where no preset and no model file describe the architecture, and the
 * plain table's rows or width were not both given (with both, kinds 0 and 5 give the same table).
 */
void
vc_profile_read_old_rope_table (VcEstimate *estimate)
{
  const VcArch *arch;
  g_autofree char *format = NULL;

  g_return_if_fail (VC_IS_ESTIMATE (estimate));

  arch = &vc_estimate_get_inputs (estimate)->arch;
  g_object_get (estimate, "source-format", &format, NULL);
  if (vc_estimate_get_preset (estimate)[0] != '\0' || format[0] != '\0' ||
      arch->rope_table_kind != VC_ROPE_TABLE_PLAIN ||
      (arch->rope_table_rows > 0 && arch->rotary_dim > 0))
    return;
  g_object_set (estimate, "rope-table-kind", (guint) VC_ROPE_TABLE_NOT_GIVEN, NULL);
}

/**
 * vc_profile_parse:
 * @data: the file's bytes
 * @length: their number
 * @target: the estimate that receives the inputs, only if the whole profile is valid
 * @name: (out) (optional): the profile's name ("" when it has none)
 * @notes: (out) (optional): its notes ("" when none)
 * @unit: (out) (optional): its display unit (GB when it names none)
 * @error: a VC_ERROR whose message starts with the field at fault ("inputs.batch: …")
 *
 * Validates every field against the estimate's own ranges, in a scratch estimate; @target is
 * changed only when everything is valid. Unknown members are ignored; inputs the profile does
 * not mention keep their defaults (or, after "preset", the preset's values).
 */
gboolean
vc_profile_parse (const char  *data,
                  gsize        length,
                  VcEstimate  *target,
                  char       **name,
                  char       **notes,
                  VcUnit      *unit,
                  GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GHashTable) huge = NULL;
  g_autoptr(VcEstimate) scratch = NULL;
  g_autofree char *profile_name = NULL, *profile_notes = NULL;
  JsonObject *object, *values;
  VcUnit profile_unit = VC_UNIT_GB;
  gint64 version;

  g_return_val_if_fail (data != NULL || length == 0, FALSE);
  g_return_val_if_fail (VC_IS_ESTIMATE (target), FALSE);

  root = vc_json_input_parse (data, length, _("the file"), _("a profile"), &huge, error);
  if (root == NULL)
    return FALSE;
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_PARSE,
                   _("not a profile: the file must hold a JSON object with “format”: “%s”"),
                   VC_PROFILE_FORMAT);
      return FALSE;
    }
  object = json_node_get_object (root);

  if (!check_format (object, error))
    return FALSE;
  version = read_version (object, huge, error);
  if (version == 0)
    return FALSE;

  if (!read_optional_text (object, "name", &profile_name, error) ||
      !read_optional_text (object, "notes", &profile_notes, error))
    return FALSE;

  values = get_inputs_object (object, error);
  if (values == NULL)
    return FALSE;
  scratch = vc_estimate_new ();
  if (!apply_inputs (scratch, values, huge, &profile_unit, error))
    return FALSE;

  /* version 1 had one precision for both modes: a training run kept its parameters in it
   * when it was a floating-point one */
  if (version == 1 &&
      json_object_get_member (values, "training-precision") == NULL &&
      vc_precision_is_float (vc_estimate_get_inputs (scratch)->precision))
    g_object_set (scratch, "training-precision",
                  (VcTrainingPrecision) vc_estimate_get_inputs (scratch)->precision, NULL);
  if (version < 3)
    vc_profile_read_old_rope_table (scratch);

  vc_estimate_copy_inputs (target, scratch);
  if (name)
    *name = g_steal_pointer (&profile_name);
  if (notes)
    *notes = g_steal_pointer (&profile_notes);
  if (unit)
    *unit = profile_unit;
  return TRUE;
}

/**
 * vc_profile_read_bytes:
 *
 * A profile file's bytes, unparsed: safe in a thread. Files over VC_PROFILE_MAX_SIZE are
 * refused before they are read (and reading stops there should the file grow meanwhile).
 *
 * Returns: (transfer full) (nullable): the bytes, %NULL with @error set on failure
 */
GBytes *
vc_profile_read_bytes (GFile         *file,
                       GCancellable  *cancellable,
                       GError       **error)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  /* the one guarded way in: regular files only (a FIFO or a device is refused before it is
   * read), one size cap, read no further than it */
  return vc_json_input_read_file (file, _("the file"), _("a profile"), cancellable, error);
}

/**
 * vc_profile_read_file:
 *
 * Like vc_profile_parse(), from a file (read by vc_profile_read_bytes()).
 */
gboolean
vc_profile_read_file (GFile         *file,
                      VcEstimate    *target,
                      char         **name,
                      char         **notes,
                      VcUnit        *unit,
                      GCancellable  *cancellable,
                      GError       **error)
{
  g_autoptr(GBytes) bytes = NULL;
  gsize length = 0;
  const char *data;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (VC_IS_ESTIMATE (target), FALSE);

  bytes = vc_profile_read_bytes (file, cancellable, error);
  if (bytes == NULL)
    return FALSE;
  data = g_bytes_get_data (bytes, &length);
  /* vc_profile_parse refuses an empty file with its message */
  return vc_profile_parse (data ? data : "", length, target, name, notes, unit, error);
}

/**
 * vc_profile_write_file:
 *
 * Writes a profile atomically: the text goes to a temporary file in the same folder that then
 * replaces @file, so a failure (full disk, no permission, missing folder) leaves any previous
 * file as it was.
 */
gboolean
vc_profile_write_file (GFile         *file,
                       VcEstimate    *estimate,
                       const char    *name,
                       const char    *notes,
                       VcUnit         unit,
                       GCancellable  *cancellable,
                       GError       **error)
{
  g_autofree char *data = NULL;
  gsize length;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (VC_IS_ESTIMATE (estimate), FALSE);

  data = vc_profile_serialize (estimate, name, notes, unit, &length);
  return vc_atomic_file_replace (file, data, length, cancellable, error);
}

/* ---- VcProfile ----------------------------------------------------------------------------- */

struct _VcProfile
{
  GObject parent_instance;

  VcEstimate *estimate;
  VcEstimate *saved;          /* the inputs as last loaded or saved */
  GFile *file;
  char *name;
  char *notes;
  char *saved_name;
  char *saved_notes;
  VcUnit unit;
  VcUnit saved_unit;
  gboolean modified;
};

enum {
  PROP_0,
  PROP_ESTIMATE,
  PROP_FILE,
  PROP_NAME,
  PROP_NOTES,
  PROP_UNIT,
  PROP_TITLE,
  PROP_MODIFIED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (VcProfile, vc_profile, G_TYPE_OBJECT)

static void
update_modified (VcProfile *self)
{
  gboolean modified;

  if (self->estimate == NULL)
    return;
  modified = g_strcmp0 (self->name, self->saved_name) != 0 ||
             g_strcmp0 (self->notes, self->saved_notes) != 0 ||
             self->unit != self->saved_unit ||
             !vc_estimate_edits_equal (self->estimate, self->saved);
  if (modified == self->modified)
    return;
  self->modified = modified;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
}

static void
on_estimate_notify (VcEstimate *estimate,
                    GParamSpec *pspec,
                    VcProfile  *self)
{
  /* results change with the inputs; only inputs matter here */
  if (pspec->flags & G_PARAM_WRITABLE)
    update_modified (self);
}

static gboolean
set_text (char       **field,
          const char  *text)
{
  g_autofree char *valid = NULL;

  if (text == NULL)
    text = "";
  /* what is saved must reopen: bytes that are not UTF-8 become U+FFFD */
  if (!g_utf8_validate (text, -1, NULL))
    text = valid = g_utf8_make_valid (text, -1);
  if (g_strcmp0 (*field, text) == 0)
    return FALSE;
  g_free (*field);
  *field = g_strdup (text);
  return TRUE;
}

static void
vc_profile_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  VcProfile *self = VC_PROFILE (object);

  switch (prop_id)
    {
    case PROP_ESTIMATE:
      self->estimate = g_value_dup_object (value);
      break;
    case PROP_NAME:
      vc_profile_set_name (self, g_value_get_string (value));
      break;
    case PROP_NOTES:
      vc_profile_set_notes (self, g_value_get_string (value));
      break;
    case PROP_UNIT:
      vc_profile_set_unit (self, g_value_get_enum (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
vc_profile_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  VcProfile *self = VC_PROFILE (object);

  switch (prop_id)
    {
    case PROP_ESTIMATE: g_value_set_object (value, self->estimate); break;
    case PROP_FILE: g_value_set_object (value, self->file); break;
    case PROP_NAME: g_value_set_string (value, self->name); break;
    case PROP_NOTES: g_value_set_string (value, self->notes); break;
    case PROP_UNIT: g_value_set_enum (value, self->unit); break;
    case PROP_TITLE: g_value_take_string (value, vc_profile_dup_title (self)); break;
    case PROP_MODIFIED: g_value_set_boolean (value, self->modified); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
vc_profile_constructed (GObject *object)
{
  VcProfile *self = VC_PROFILE (object);

  G_OBJECT_CLASS (vc_profile_parent_class)->constructed (object);

  if (self->estimate == NULL)
    self->estimate = vc_estimate_new ();
  vc_estimate_copy_inputs (self->saved, self->estimate);
  g_signal_connect_object (self->estimate, "notify", G_CALLBACK (on_estimate_notify), self, 0);
}

static void
vc_profile_finalize (GObject *object)
{
  VcProfile *self = VC_PROFILE (object);

  g_clear_object (&self->estimate);
  g_clear_object (&self->saved);
  g_clear_object (&self->file);
  g_free (self->name);
  g_free (self->notes);
  g_free (self->saved_name);
  g_free (self->saved_notes);
  G_OBJECT_CLASS (vc_profile_parent_class)->finalize (object);
}

static void
vc_profile_class_init (VcProfileClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = vc_profile_constructed;
  object_class->finalize = vc_profile_finalize;
  object_class->get_property = vc_profile_get_property;
  object_class->set_property = vc_profile_set_property;

  properties[PROP_ESTIMATE] =
    g_param_spec_object ("estimate", "Estimate", "The live estimate the profile reads and writes",
                         VC_TYPE_ESTIMATE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FILE] =
    g_param_spec_object ("file", "File", "Where the profile was last opened from or saved to",
                         G_TYPE_FILE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_NAME] =
    g_param_spec_string ("name", "Name", "The profile's name", "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_NOTES] =
    g_param_spec_string ("notes", "Notes", "Free notes", "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_UNIT] =
    g_param_spec_enum ("unit", N_("Unit"), N_("Sizes in GB (10^9 bytes) or GiB (2^30 bytes)"),
                       VC_TYPE_UNIT, VC_UNIT_GB,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", "Title", "The name, else the file's name, else “Untitled profile”",
                         "", G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_MODIFIED] =
    g_param_spec_boolean ("modified", "Modified",
                          "Whether the inputs, unit, name or notes differ from the last load or save",
                          FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
vc_profile_init (VcProfile *self)
{
  self->saved = vc_estimate_new ();
  self->name = g_strdup ("");
  self->notes = g_strdup ("");
  self->saved_name = g_strdup ("");
  self->saved_notes = g_strdup ("");
}

/**
 * vc_profile_new:
 * @estimate: (nullable): the live estimate; a new one when %NULL
 *
 * The profile starts unsaved (no file, no name) and unmodified: the estimate's current inputs
 * are the baseline.
 */
VcProfile *
vc_profile_new (VcEstimate *estimate)
{
  g_return_val_if_fail (estimate == NULL || VC_IS_ESTIMATE (estimate), NULL);
  return g_object_new (VC_TYPE_PROFILE, "estimate", estimate, NULL);
}

VcEstimate *
vc_profile_get_estimate (VcProfile *self)
{
  g_return_val_if_fail (VC_IS_PROFILE (self), NULL);
  return self->estimate;
}

GFile *
vc_profile_get_file (VcProfile *self)
{
  g_return_val_if_fail (VC_IS_PROFILE (self), NULL);
  return self->file;
}

const char *
vc_profile_get_name (VcProfile *self)
{
  g_return_val_if_fail (VC_IS_PROFILE (self), NULL);
  return self->name;
}

void
vc_profile_set_name (VcProfile  *self,
                     const char *name)
{
  g_return_if_fail (VC_IS_PROFILE (self));
  if (!set_text (&self->name, name))
    return;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
  update_modified (self);
}

const char *
vc_profile_get_notes (VcProfile *self)
{
  g_return_val_if_fail (VC_IS_PROFILE (self), NULL);
  return self->notes;
}

void
vc_profile_set_notes (VcProfile  *self,
                      const char *notes)
{
  g_return_if_fail (VC_IS_PROFILE (self));
  if (!set_text (&self->notes, notes))
    return;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NOTES]);
  update_modified (self);
}

/* the display unit: a view setting, kept and saved with the profile */
VcUnit
vc_profile_get_unit (VcProfile *self)
{
  g_return_val_if_fail (VC_IS_PROFILE (self), VC_UNIT_GB);
  return self->unit;
}

void
vc_profile_set_unit (VcProfile *self,
                     VcUnit     unit)
{
  g_return_if_fail (VC_IS_PROFILE (self));

  if (self->unit == unit)
    return;
  self->unit = unit;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNIT]);
  update_modified (self);
}

/**
 * vc_profile_dup_title:
 *
 * Returns: (transfer full): what a window title shows: the name, else the file's name, else
 *   “Untitled profile” (the unsaved-changes mark is the window's to add, from "modified")
 */
char *
vc_profile_dup_title (VcProfile *self)
{
  g_return_val_if_fail (VC_IS_PROFILE (self), NULL);

  if (self->name[0] != '\0')
    return g_strdup (self->name);
  if (self->file != NULL)
    {
      g_autofree char *path = g_file_get_path (self->file);
      g_autofree char *base = NULL;

      if (path)
        return g_filename_display_basename (path);
      base = g_file_get_basename (self->file);
      if (base)
        return g_uri_unescape_string (base, NULL) ?: g_strdup (base);
    }
  return g_strdup (_("Untitled profile"));
}

gboolean
vc_profile_get_modified (VcProfile *self)
{
  g_return_val_if_fail (VC_IS_PROFILE (self), FALSE);
  return self->modified;
}

static void
set_file (VcProfile *self,
          GFile     *file)
{
  if (self->file == file || (self->file && file && g_file_equal (self->file, file)))
    return;
  g_set_object (&self->file, file);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

/**
 * vc_profile_mark_saved:
 *
 * Takes the current inputs, name and notes as the saved state ("modified" becomes %FALSE),
 * for example after restoring the last session's inputs.
 */
static void
take_as_saved (VcProfile  *self,
               VcEstimate *inputs,
               const char *name,
               const char *notes,
               VcUnit      unit)
{
  vc_estimate_copy_inputs (self->saved, inputs);
  self->saved_unit = unit;
  set_text (&self->saved_name, name);
  set_text (&self->saved_notes, notes);
  update_modified (self);
}

void
vc_profile_mark_saved (VcProfile *self)
{
  g_return_if_fail (VC_IS_PROFILE (self));

  take_as_saved (self, self->estimate, self->name, self->notes, self->unit);
}

/* a file read and parsed into the estimate becomes the open profile */
static void
loaded (VcProfile  *self,
        GFile      *file,
        const char *name,
        const char *notes,
        VcUnit      unit)
{
  g_object_freeze_notify (G_OBJECT (self));
  vc_profile_set_name (self, name);
  vc_profile_set_notes (self, notes);
  vc_profile_set_unit (self, unit);
  set_file (self, file);
  vc_profile_mark_saved (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * vc_profile_load:
 * @file: the profile to open
 *
 * Reads and validates @file; on success its inputs replace the estimate's, its name and notes
 * replace the profile's, @file becomes the profile's file and "modified" is %FALSE. On failure
 * nothing changes and @error says which field is wrong.
 */
gboolean
vc_profile_load (VcProfile     *self,
                 GFile         *file,
                 GCancellable  *cancellable,
                 GError       **error)
{
  g_autofree char *name = NULL, *notes = NULL;
  VcUnit unit = VC_UNIT_GB;

  g_return_val_if_fail (VC_IS_PROFILE (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (!vc_profile_read_file (file, self->estimate, &name, &notes, &unit, cancellable, error))
    return FALSE;

  loaded (self, file, name, notes, unit);
  return TRUE;
}

/**
 * vc_profile_save:
 * @file: (nullable): where to save; %NULL for the profile's own file (Save rather than Save As)
 *
 * Writes the estimate's inputs with the name and notes, atomically. On success @file becomes
 * the profile's file and "modified" is %FALSE; on failure the previous file is intact and the
 * profile is unchanged.
 */
gboolean
vc_profile_save (VcProfile     *self,
                 GFile         *file,
                 GCancellable  *cancellable,
                 GError       **error)
{
  g_return_val_if_fail (VC_IS_PROFILE (self), FALSE);
  g_return_val_if_fail (file == NULL || G_IS_FILE (file), FALSE);
  g_return_val_if_fail (file != NULL || self->file != NULL, FALSE);

  if (file == NULL)
    file = self->file;
  if (!vc_profile_write_file (file, self->estimate, self->name, self->notes, self->unit,
                              cancellable, error))
    return FALSE;

  g_object_freeze_notify (G_OBJECT (self));
  set_file (self, file);
  vc_profile_mark_saved (self);
  g_object_thaw_notify (G_OBJECT (self));
  return TRUE;
}

/**
 * vc_profile_reset:
 *
 * A new profile: default inputs, no name, notes or file, not modified.
 */
void
vc_profile_reset (VcProfile *self)
{
  g_autoptr(VcEstimate) defaults = vc_estimate_new ();

  g_return_if_fail (VC_IS_PROFILE (self));

  g_object_freeze_notify (G_OBJECT (self));
  vc_estimate_copy_inputs (self->estimate, defaults);
  vc_profile_set_name (self, "");
  vc_profile_set_notes (self, "");
  vc_profile_set_unit (self, VC_UNIT_GB);
  set_file (self, NULL);
  vc_profile_mark_saved (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/* ---- asynchronous open and save -------------------------------------------------------------- */

/* Only the file's bytes are read or written in a thread: the estimate, its idle recomputation
 * and the profile's notifications stay in the main thread. */

static void
read_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GError *error = NULL;
  GBytes *bytes = vc_profile_read_bytes (task_data, cancellable, &error);

  if (bytes == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, bytes, (GDestroyNotify) g_bytes_unref);
}

/**
 * vc_profile_load_async:
 * @file: the profile to open
 *
 * vc_profile_load() with the file read in a thread. Start no other load or save of this
 * profile before @callback runs.
 */
void
vc_profile_load_async (VcProfile           *self,
                       GFile               *file,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (VC_IS_PROFILE (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, vc_profile_load_async);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, read_thread);
}

/**
 * vc_profile_load_finish:
 *
 * Validates what vc_profile_load_async() read and, when it is all valid, makes it the open
 * profile, as vc_profile_load() does. On failure nothing changes.
 */
gboolean
vc_profile_load_finish (VcProfile     *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *name = NULL, *notes = NULL;
  VcUnit unit = VC_UNIT_GB;
  GFile *file;
  const char *data;
  gsize length;

  g_return_val_if_fail (VC_IS_PROFILE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  bytes = g_task_propagate_pointer (G_TASK (result), error);
  if (bytes == NULL)
    return FALSE;
  file = g_task_get_task_data (G_TASK (result));
  data = g_bytes_get_data (bytes, &length);
  if (!vc_profile_parse (data, length, self->estimate, &name, &notes, &unit, error))
    return FALSE;
  loaded (self, file, name, notes, unit);
  return TRUE;
}

/* what a save writes, and what it marks as saved once written */
typedef struct
{
  GFile *file;
  GBytes *bytes;
  VcEstimate *inputs;
  char *name;
  char *notes;
  VcUnit unit;
} SaveData;

static void
save_data_free (SaveData *d)
{
  g_clear_object (&d->file);
  g_clear_pointer (&d->bytes, g_bytes_unref);
  g_clear_object (&d->inputs);
  g_free (d->name);
  g_free (d->notes);
  g_free (d);
}

static void
save_written (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  g_autoptr(GTask) task = data;
  GError *error = NULL;

  if (vc_atomic_file_replace_finish (G_FILE (source), result, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * vc_profile_save_async:
 * @file: (nullable): where to save; %NULL for the profile's own file
 *
 * vc_profile_save() with the file written in a thread. The inputs, name and notes are those
 * of this call: changes made while the file is written leave the profile modified. Start no
 * other load or save of this profile before @callback runs.
 */
void
vc_profile_save_async (VcProfile           *self,
                       GFile               *file,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  SaveData *d;
  gsize length;
  char *data;

  g_return_if_fail (VC_IS_PROFILE (self));
  g_return_if_fail (file == NULL || G_IS_FILE (file));
  g_return_if_fail (file != NULL || self->file != NULL);

  d = g_new0 (SaveData, 1);
  d->file = g_object_ref (file ? file : self->file);
  data = vc_profile_serialize (self->estimate, self->name, self->notes, self->unit, &length);
  d->bytes = g_bytes_new_take (data, length);
  d->inputs = vc_estimate_new ();
  vc_estimate_copy_inputs (d->inputs, self->estimate);
  d->name = g_strdup (self->name);
  d->notes = g_strdup (self->notes);
  d->unit = self->unit;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, vc_profile_save_async);
  g_task_set_task_data (task, d, (GDestroyNotify) save_data_free);
  vc_atomic_file_replace_async (d->file, d->bytes, cancellable, save_written, g_steal_pointer (&task));
}

/**
 * vc_profile_save_finish:
 *
 * On success the file saved to becomes the profile's file and what was written is the saved
 * state; on failure the previous file is intact and the profile is unchanged.
 */
gboolean
vc_profile_save_finish (VcProfile     *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  SaveData *d;

  g_return_val_if_fail (VC_IS_PROFILE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  d = g_task_get_task_data (G_TASK (result));
  g_object_freeze_notify (G_OBJECT (self));
  set_file (self, d->file);
  take_as_saved (self, d->inputs, d->name, d->notes, d->unit);
  g_object_thaw_notify (G_OBJECT (self));
  return TRUE;
}

/**
 * vc_profile_save_target:
 * @result: a save's result
 *
 * Returns: (transfer none): the file a save started by vc_profile_save_async() writes
 */
GFile *
vc_profile_save_target (GAsyncResult *result)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);
  return ((SaveData *) g_task_get_task_data (G_TASK (result)))->file;
}
