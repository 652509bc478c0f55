/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-json-input: the guarded way JSON comes in. Whatever it accepts, json-glib parsed
 * without going deeper than the limit, and every text in it is UTF-8. */
#include "config.h"

#include "vc-json-input.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static guint
depth_of (JsonNode *node)
{
  guint deepest = 0;

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *member;
      JsonNode *child;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, &member, &child))
        {
          guint d = depth_of (child);   /* not inside MAX (): it would run twice */

          g_assert_true (g_utf8_validate (member, -1, NULL));
          deepest = MAX (deepest, d);
        }
      return deepest + 1;
    }
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          guint d = depth_of (json_array_get_element (array, i));
          deepest = MAX (deepest, d);
        }
      return deepest + 1;
    }
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    g_assert_true (g_utf8_validate (json_node_get_string (node), -1, NULL));
  return 0;
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) huge = NULL;
  g_autoptr(JsonNode) root = vc_json_input_parse ((const char *) data, size, "fuzz.json", "a test",
                                                  &huge, &error);

  if (root == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
      return 0;
    }
  g_assert_no_error (error);
  g_assert_cmpuint (depth_of (root), <=, VC_JSON_INPUT_MAX_DEPTH);
  return 0;
}
