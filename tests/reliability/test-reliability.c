/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-reliability.c: inputs that once crashed, hung, lost data or slipped through wrong;
 * each case names the defect it guards against. Core API and vramcalc. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vc-atomic-file.h"
#include "vc-enums.h"
#include "vc-error.h"
#include "vc-estimate.h"
#include "vc-hf-config.h"
#include "vc-json-input.h"
#include "vc-profile.h"
#include "vc-report.h"
#include "vc-test-util.h"
#include "vc-units.h"

static char *
fixture (const char *model)
{
  return g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models", model, "config.json", NULL);
}

static char *
read_text (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

static void
write_text (const char *path,
            const char *text,
            gssize      length)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, length, &error);
  g_assert_no_error (error);
}

static guint
count_entries (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  g_assert_nonnull (d);
  while (g_dir_read_name (d))
    n++;
  return n;
}

static char *
profile_text (const char *name_json,
              const char *inputs_json)
{
  return g_strdup_printf ("{\"format\": \"vram-calculator-profile\", \"version\": 1, \"name\": %s, "
                          "\"inputs\": {%s}}", name_json, inputs_json);
}

static void
assert_profile_refused (const char *text,
                        gssize      length,
                        const char *message)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  guint batch;

  g_object_set (e, "batch", 7, NULL);
  if (length < 0)
    length = strlen (text);
  g_assert_false (vc_profile_parse (text, length, e, NULL, NULL, NULL, &error));
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  if (strstr (error->message, message) == NULL)
    g_error ("message “%s” lacks “%s”", error->message, message);
  g_object_get (e, "batch", &batch, NULL);
  g_assert_cmpuint (batch, ==, 7);
}

static void
assert_config_refused (const char *text,
                       gssize      length,
                       const char *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) config = NULL;

  if (length < 0)
    length = strlen (text);
  config = vc_hf_config_new_from_data (text, length, "config.json", NULL, &error);
  g_assert_null (config);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  if (strstr (error->message, message) == NULL)
    g_error ("message “%s” lacks “%s”", error->message, message);
}

/* 1. An empty config.json crashed every way in (json-glib was handed NULL). */
static void
test_empty_config (void)
{
  g_autofree char *dir = vc_test_make_tmpdir ("vc-rel");
  g_autofree char *empty = g_build_filename (dir, "empty.json", NULL);
  g_autofree char *folder = g_build_filename (dir, "model", NULL);
  g_autofree char *in_folder = g_build_filename (folder, "config.json", NULL);
  g_autofree char *out = NULL, *err = NULL;
  const char *paths[] = { empty, "/dev/null", folder };

  write_text (empty, "", 0);
  g_mkdir (folder, 0755);
  write_text (in_folder, "", 0);
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(VcHfConfig) config = vc_hf_config_new_for_path (paths[i], &error);

      g_assert_null (config);
      g_assert_nonnull (error);
      g_test_message ("%s: %s", paths[i], error->message);
    }
  {
    const char *args[] = { "--config", empty, NULL };
    g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 2);
    g_assert_nonnull (strstr (err, "empty.json is empty; a config.json is a JSON object"));
  }
  vc_test_remove_tree (dir);
}

/* 2. 75,000 '[' overflowed the stack inside json-glib's recursive parser. */
static void
test_deep_config (void)
{
  g_autoptr(GString) text = g_string_new ("{\"model_type\": \"llama\", \"x\": ");

  for (guint i = 0; i < 75000; i++)
    g_string_append_c (text, '[');
  assert_config_refused (text->str, text->len, "too deeply (more than 64 levels)");
}

/* 3. The profile's depth check knew only double-quoted strings: a comment holding a quote, or
 * a single-quoted string, hid 80,000 '[' from it. */
static void
test_deep_profile_hidden (void)
{
  const char *openers[] = { "/* \" */", "['\"', ", "/\"/", "// \"\n" };

  for (guint k = 0; k < G_N_ELEMENTS (openers); k++)
    {
      g_autoptr(GString) text = g_string_new (openers[k]);

      for (guint i = 0; i < 80000; i++)
        g_string_append_c (text, '[');
      assert_profile_refused (text->str, text->len, "too deeply");
    }
  /* the depth json-glib accepts is still read: 64 levels */
  {
    g_autoptr(GString) ok = g_string_new (NULL);
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonNode) node = NULL;

    for (guint i = 0; i < VC_JSON_INPUT_MAX_DEPTH; i++)
      g_string_append_c (ok, '[');
    for (guint i = 0; i < VC_JSON_INPUT_MAX_DEPTH; i++)
      g_string_append_c (ok, ']');
    node = vc_json_input_parse (ok->str, ok->len, "x", "y", NULL, &error);
    g_assert_no_error (error);
    g_assert_nonnull (node);
  }
}

/* 4. A read-only folder holding a writable file: GLib fell back to writing in place, and a
 * failed write then truncated the old profile. Run as an unprivileged user (CI does). */
static void
test_save_read_only_folder_full_disk (void)
{
  g_autofree char *dir = vc_test_make_tmpdir ("vc-rel");
  g_autofree char *path = g_build_filename (dir, "p.json", NULL);
  g_autofree char *before = NULL, *after = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GString) notes = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  struct rlimit saved, limit;
  gboolean ok;

  g_assert_true (vc_profile_write_file (file, e, "Old", NULL, VC_UNIT_GB, NULL, &error));
  g_assert_no_error (error);
  before = read_text (path);
  g_assert_cmpint (g_chmod (dir, 0555), ==, 0);
  if (access (dir, W_OK) == 0)
    {
      g_chmod (dir, 0755);
      vc_test_remove_tree (dir);
      g_test_skip ("permissions are not enforced for this user (CI runs this as nobody)");
      return;
    }
  while (notes->len < 65536)
    g_string_append (notes, "notes that make the profile larger than the limit\n");
  signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  limit = saved;
  limit.rlim_cur = 8192;
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  ok = vc_profile_write_file (file, e, "New", notes->str, VC_UNIT_GB, NULL, &error);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  signal (SIGXFSZ, SIG_DFL);

  g_assert_false (ok);
  g_test_message ("%s", error->message);
  after = read_text (path);
  g_assert_cmpstr (before, ==, after);
  g_assert_cmpuint (count_entries (dir), ==, 1);
  g_assert_nonnull (strstr (error->message, "never writes over it"));
  g_chmod (dir, 0755);
  vc_test_remove_tree (dir);
}

/* 5. A new profile saved onto a full disk left a 0-byte file behind. */
static void
test_save_new_full_disk (void)
{
  g_autofree char *dir = vc_test_make_tmpdir ("vc-rel");
  g_autofree char *path = g_build_filename (dir, "new.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GString) notes = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  struct rlimit saved, limit;
  gboolean ok;

  while (notes->len < 65536)
    g_string_append (notes, "notes that make the profile larger than the limit\n");
  signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  limit = saved;
  limit.rlim_cur = 8192;
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  ok = vc_profile_write_file (file, e, "New", notes->str, VC_UNIT_GB, NULL, &error);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  signal (SIGXFSZ, SIG_DFL);

  g_assert_false (ok);
  g_assert_error (error, G_IO_ERROR, (int) g_io_error_from_errno (EFBIG));
  g_test_message ("%s", error->message);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_entries (dir), ==, 0);
  vc_test_remove_tree (dir);
}

/* A save keeps the replaced file's permissions and goes through a link to the file. */
static void
test_save_keeps_mode_and_link (void)
{
  g_autofree char *dir = vc_test_make_tmpdir ("vc-rel");
  g_autofree char *path = g_build_filename (dir, "p.json", NULL);
  g_autofree char *link = g_build_filename (dir, "link.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (link);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  struct stat st;

  write_text (path, "old", -1);
  g_assert_cmpint (g_chmod (path, 0640), ==, 0);
  g_assert_cmpint (symlink ("p.json", link), ==, 0);
  g_assert_true (vc_atomic_file_replace (file, "new", 3, NULL, &error));
  g_assert_no_error (error);
  text = read_text (path);
  g_assert_cmpstr (text, ==, "new");
  g_assert_cmpint (lstat (link, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  g_assert_cmpint (stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0640);
  g_assert_cmpuint (count_entries (dir), ==, 2);
  vc_test_remove_tree (dir);
}

/* 6. Invalid UTF-8 got into strings: octal escapes, folder names, the text setter. What is
 * saved must reopen. */
static void
test_invalid_utf8 (void)
{
  g_autofree char *octal = profile_text ("\"caf\\351\"", "\"batch\": 2");
  g_autofree char *dir = vc_test_make_tmpdir ("vc-rel");
  g_autofree char *folder = g_build_filename (dir, "mod\xff" "el", NULL);
  g_autofree char *config_path = g_build_filename (folder, "config.json", NULL);
  g_autofree char *llama = fixture ("Llama-3.1-8B");
  g_autofree char *llama_text = read_text (llama);
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(VcProfile) profile = vc_profile_new (e);
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) config = NULL;
  g_autofree char *saved = NULL;

  assert_profile_refused (octal, -1, "not UTF-8 once its escapes are read");
  /* refused before parsing, the same way by every json-glib: 1.10 reads "\351" as "é", and
   * 1.6 and 1.10 read "\xe9" as "xe9" */
  {
    g_autofree char *hex = profile_text ("\"caf\\xe9\"", "\"batch\": 2");
    g_autofree char *octal_ok = profile_text ("\"caf\\\\351\"", "\"batch\": 2");
    g_autoptr(VcEstimate) back = vc_estimate_new ();

    assert_profile_refused (hex, -1, "not UTF-8 once its escapes are read");
    /* an escaped backslash before digits is no escape of a byte */
    g_assert_true (vc_profile_parse (octal_ok, strlen (octal_ok), back, NULL, NULL, NULL, &error));
    g_assert_no_error (error);
  }
  assert_config_refused ("{\"model_type\": \"llama\\377\"}", -1, "not UTF-8 once its escapes are read");
  /* \u escapes: four hex digits, surrogates only in pairs. json-glib 1.6 reads "\uZZZZ" as
   * "uZZZZ" and leaks the text read so far on a broken pair, so these are refused before it */
  assert_config_refused ("{\"model_type\": \"\\uZZZZ\"}", -1, "malformed \\u escape");
  assert_config_refused ("{\"\\ude{\\udeepsepseek}mlp_bias", -1, "malformed \\u escape");
  assert_config_refused ("{\"model_type\": \"\\ud800\\u\"}", -1, "malformed \\u escape");
  assert_config_refused ("{\"model_type\": \"\\ude00\\ud800\"}", -1, "malformed \\u escape");
  assert_config_refused ("{\"model_type\": \"\\ud800\"}", -1, "malformed \\u escape");
  assert_config_refused ("{\"model_type\": \"\\u12\"}", -1, "malformed \\u escape");
  {
    /* a whole pair is a character: U+1F600 */
    const char *pair = "{\"model_type\": \"llama\", \"note\": \"\\ud83d\\ude00 \\u00e9\"}";
    g_autoptr(JsonNode) node = vc_json_input_parse (pair, strlen (pair), "config.json", "a config.json",
                                                    NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "note"), ==,
                     "\xf0\x9f\x98\x80 \xc3\xa9");
  }

  g_assert_false (vc_estimate_set_from_string (e, "model-name", "caf\xe9", &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  g_assert_false (vc_estimate_set_from_string (e, "lora-targets", "q,\xff", &error));
  g_clear_error (&error);
  /* the message must not quote the bytes either */
  g_assert_false (vc_estimate_set_preset (e, "llama\xff", &error));
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_clear_error (&error);

  /* setters without an error: the bytes become U+FFFD, and the profile reopens */
  vc_estimate_set_model_name (e, "caf\xe9");
  g_assert_true (g_utf8_validate (vc_estimate_get_model_name (e), -1, NULL));
  vc_profile_set_name (profile, "n\xff");
  vc_profile_set_notes (profile, "\xc3");
  g_assert_true (g_utf8_validate (vc_profile_get_name (profile), -1, NULL));
  saved = vc_profile_serialize (e, "raw\xff", "\xfe", VC_UNIT_GB, NULL);
  {
    g_autoptr(VcEstimate) back = vc_estimate_new ();
    g_assert_true (vc_profile_parse (saved, strlen (saved), back, NULL, NULL, NULL, &error));
    g_assert_no_error (error);
  }

  /* a config.json in a folder whose name is not UTF-8 loads, under a UTF-8 name */
  g_mkdir (folder, 0755);
  write_text (config_path, llama_text, -1);
  config = vc_hf_config_new_for_path (folder, &error);
  g_assert_no_error (error);
  g_assert_nonnull (config);
  g_assert_true (g_utf8_validate (vc_hf_config_get_name (config), -1, NULL));
  vc_hf_config_apply (config, e);
  {
    g_autofree char *json = vc_report_json (e);
    g_assert_true (g_utf8_validate (json, -1, NULL));
  }
  vc_test_remove_tree (dir);
}

/* 8. A custom GPU name that is not UTF-8 was counted before it was validated (a read past
 * its end; the sanitizer run sees it). */
static void
test_custom_gpu_invalid_utf8 (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  const char *texts[] = { "\xc3=24", "A\xe2\x82=24", "ok=24;\xff=48" };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *gpus = NULL;

      g_assert_false (vc_estimate_set_custom_gpus (e, texts[i], &error));
      g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE);
      g_object_get (e, "custom-gpus", &gpus, NULL);
      g_assert_cmpstr (gpus, ==, "");
    }
}

/* 9. parse_flags leaked a copy of the text on every set (the sanitizer run sees it). */
static void
test_lora_targets (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *shown = NULL;

  for (guint i = 0; i < 100; i++)
    g_assert_true (vc_estimate_set_from_string (e, "lora-targets", i % 2 ? "q_proj, v_proj" : "all-linear", &error));
  g_assert_no_error (error);
  shown = vc_estimate_dup_input_string (e, "lora-targets");
  g_assert_cmpstr (shown, ==, "q,v");
  g_assert_false (vc_estimate_set_from_string (e, "lora-targets", "  ", &error));
}

/* 11. Huge negative integers loaded silently as 1 (json-glib wraps them around). */
static void
test_huge_integers (void)
{
  g_autofree char *batch = profile_text ("\"\"", "\"batch\": -99999999999999999999");
  g_autofree char *seq = profile_text ("\"\"", "\"seq\": 99999999999999999999");
  g_autofree char *params = profile_text ("\"\"", "\"parameters\": -99999999999999999999");
  const char *version = "{\"format\": \"vram-calculator-profile\", \"version\": -99999999999999999999, "
                        "\"inputs\": {}}";
  g_autofree char *llama = fixture ("Llama-3.1-8B");
  g_autofree char *text = read_text (llama);
  g_autoptr(GString) commented = g_string_new (NULL);
  char *layers;

  assert_profile_refused (batch, -1, "-99999999999999999999 is out of range for batch");
  assert_profile_refused (seq, -1, "99999999999999999999 is out of range for seq");
  assert_profile_refused (params, -1, "-99999999999999999999 is out of range for parameters");
  assert_profile_refused (version, -1, "version: -99999999999999999999 is not a format version");

  /* the layer count, after a comment holding a quote */
  layers = strstr (text, "\"num_hidden_layers\"");
  g_assert_nonnull (layers);
  g_string_append_len (commented, text, layers - text);
  g_string_append (commented, "/* \" */ \"num_hidden_layers\": -99999999999999999999,\n  \"x_layers\"");
  g_string_append (commented, layers + strlen ("\"num_hidden_layers\""));
  assert_config_refused (commented->str, commented->len, "got -99999999999999999999");
}

/* 12. Architecture options bypassed the 1e15-parameter ceiling: 3e23 parameters. */
static void
test_architecture_ceiling (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  const char *args[] = { "--layers", "100000", "--hidden-size", "1000000", "--intermediate-size", "10000000", NULL };

  vc_estimate_set_preset (e, "llama-3-8b", &error);
  g_assert_no_error (error);
  g_assert_true (vc_estimate_check (e, &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, NULL);
  g_assert_true (vc_estimate_check (e, &error));
  g_object_set (e, "layers", 100000, "hidden-size", 1000000, NULL);
  g_assert_false (vc_estimate_check (e, &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION);
  g_assert_nonnull (strstr (error->message, "accepted: up to 1e+15"));

  g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "the architecture describes a model of"));
  g_assert_null (strstr (out, "PB"));
}

/* 13. A FIFO given as a config or a profile hung the reader. */
static void
test_fifo (void)
{
  g_autofree char *dir = vc_test_make_tmpdir ("vc-rel");
  g_autofree char *fifo = g_build_filename (dir, "fifo.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) config = NULL;
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GFile) file = NULL;
  g_autofree char *out = NULL, *err = NULL;
  const char *args[] = { "--profile", fifo, NULL };

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  config = vc_hf_config_new_for_path (fifo, &error);
  g_assert_null (config);
  g_assert_error (error, VC_ERROR, VC_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "not a regular file"));
  g_clear_error (&error);

  file = g_file_new_for_path (fifo);
  g_assert_false (vc_profile_read_file (file, e, NULL, NULL, NULL, NULL, &error));
  g_assert_nonnull (strstr (error->message, "not a regular file"));
  g_clear_error (&error);

  g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "not a regular file"));
  vc_test_remove_tree (dir);
}

/* 14. --config '' read the current folder; hex floats and 1e308T passed; a NUL cut a profile
 * string short; a second top-level value was accepted. */
static void
test_odd_values (void)
{
  g_autofree char *dir = vc_test_make_tmpdir ("vc-rel");
  g_autofree char *here = g_get_current_dir ();
  g_autofree char *llama = fixture ("Llama-3.1-8B");
  g_autofree char *text = read_text (llama);
  g_autofree char *copy = g_build_filename (dir, "config.json", NULL);
  g_autofree char *nul = profile_text ("\"a\\u0000b\"", "");
  g_autofree char *raw_nul = profile_text ("\"ab\"", "");
  g_autofree char *second = profile_text ("\"\"", "");
  g_autofree char *two = g_strconcat (second, "\n[1]", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) config = NULL;
  double v;

  write_text (copy, text, -1);
  g_assert_cmpint (g_chdir (dir), ==, 0);
  config = vc_hf_config_new_for_path ("", &error);
  g_assert_null (config);
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  /* nor through vramcalc, whose --config and --model read through the model-file reader */
  {
    const char *config_args[] = { "--config", "", NULL };
    const char *model_args[] = { "--model", "", NULL };
    g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;

    g_assert_cmpint (vc_test_run_vramcalc (config_args, NULL, &out, &err), ==, 2);
    g_assert_nonnull (strstr (err, "no file given"));
    g_assert_cmpint (vc_test_run_vramcalc (model_args, NULL, &out2, &err2), ==, 2);
    g_assert_nonnull (strstr (err2, "no file given"));
  }
  g_assert_cmpint (g_chdir (here), ==, 0);

  g_assert_false (vc_parse_number ("0x1p40", &v, NULL));
  g_assert_false (vc_parse_count ("0x1p40", &v, NULL));
  g_assert_false (vc_parse_number ("inf", &v, NULL));
  g_assert_false (vc_parse_number ("nan", &v, NULL));
  g_assert_false (vc_parse_number ("1e400", &v, NULL));
  g_assert_false (vc_parse_count ("1e308T", &v, &error));
  g_assert_nonnull (strstr (error->message, "too large"));
  g_clear_error (&error);
  g_assert_true (vc_parse_number (" 2.5e3 ", &v, NULL));
  g_assert_cmpfloat (v, ==, 2500);
  g_assert_true (vc_parse_number ("-.5", &v, NULL));
  g_assert_cmpfloat (v, ==, -0.5);

  assert_profile_refused (nul, -1, "\\u0000");
  /* a raw NUL byte inside the text */
  {
    gsize raw_len = strlen (raw_nul);

    raw_nul[strstr (raw_nul, "ab") - raw_nul + 1] = '\0';
    assert_profile_refused (raw_nul, raw_len, "NUL byte");
  }
  assert_profile_refused (two, -1, "more than one JSON value");
  assert_config_refused ("{\"model_type\": \"llama\"} {}", -1, "more than one JSON value");
  assert_config_refused ("  /* nothing */ ", -1, "only blanks or comments");
  vc_test_remove_tree (dir);
}

/* 15. --params 671B --active-params 37B ignored the activated parameters without
 * --model-type moe. */
static void
test_active_parameters (void)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  const char *moe[] = { "--params", "671B", "--active-params", "37B", "--format", "json", NULL };
  const char *dense[] = { "--params", "671B", "--active-params", "37B", "--model-type", "dense", NULL };
  const char *arch[] = { "--preset", "mixtral-8x7b", "--active-params", "13B", NULL };

  g_assert_cmpint (vc_test_run_vramcalc (moe, NULL, &out, &err), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpfloat (json_object_get_double_member (root, "parameters"), ==, 671e9);
  g_assert_cmpfloat (json_object_get_double_member (root, "active_parameters"), ==, 37e9);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (vc_test_run_vramcalc (dense, NULL, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "use --model-type moe"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (vc_test_run_vramcalc (arch, NULL, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "--method rule-of-thumb"));
}

/* 16. In the C locale the no-break space before units printed as "?". */
static void
test_c_locale_spaces (void)
{
  g_autofree char *out = NULL, *err = NULL;
  const char *args[] = { "--params", "7B", NULL };
  const char *env[] = { "LC_ALL", "C", NULL };

  g_assert_cmpint (vc_test_run_vramcalc (args, env, &out, &err), ==, 0);
  g_assert_null (strchr (out, '?'));
  g_assert_nonnull (strstr (out, "18.8 GB"));
}

/* Token counts take k/K/M: 128k is 128,000 tokens, shown as read. */
static void
test_token_suffixes (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  const char *args[] = { "--params", "7B", "--seq", "128k", NULL };
  guint seq;

  g_assert_true (vc_estimate_set_from_string (e, "seq", "128k", &error));
  g_object_get (e, "seq", &seq, NULL);
  g_assert_cmpuint (seq, ==, 128000);
  g_assert_true (vc_estimate_set_from_string (e, "seq", "32K", &error));
  g_object_get (e, "seq", &seq, NULL);
  g_assert_cmpuint (seq, ==, 32000);
  g_assert_true (vc_estimate_set_from_string (e, "seq", "1M", &error));
  g_object_get (e, "seq", &seq, NULL);
  g_assert_cmpuint (seq, ==, 1000000);
  g_assert_false (vc_estimate_set_from_string (e, "seq", "1.00001k", &error));

  g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "sequence length 128000"));
}

/* Inputs the fuzzers found (tests/fuzz/regressions): "refused-*" must be refused by every
 * reader, the others only read without harm, and a profile that loads is saved and reopens
 * with the same inputs (an overhead of -0 reopened as 0); every message is UTF-8, nothing
 * leaks (the sanitizer run checks). */
static void
test_fuzz_regressions (void)
{
  g_autofree char *dir = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "fuzz", "regressions", NULL);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *data = NULL;
      gsize length;
      g_autoptr(GError) e1 = NULL;
      g_autoptr(GError) e2 = NULL;
      g_autoptr(GError) e3 = NULL;
      g_autoptr(JsonNode) node = NULL;
      g_autoptr(VcHfConfig) config = NULL;
      g_autoptr(VcEstimate) e = vc_estimate_new ();
      g_autoptr(VcEstimate) again = vc_estimate_new ();
      g_autofree char *profile_name = NULL, *notes = NULL, *saved = NULL;
      gboolean refused = g_str_has_prefix (name, "refused-");
      gboolean loaded;

      g_assert_true (g_file_get_contents (path, &data, &length, NULL));
      node = vc_json_input_parse (data, length, name, "a test", NULL, &e1);
      config = vc_hf_config_new_from_data (data, length, name, NULL, &e2);
      loaded = vc_profile_parse (data, length, e, &profile_name, &notes, NULL, &e3);
      if (refused)
        {
          g_assert_null (node);
          g_assert_null (config);
          g_assert_false (loaded);
        }
      if (loaded)
        {
          saved = vc_profile_serialize (e, profile_name, notes, VC_UNIT_GB, NULL);
          g_assert_true (vc_profile_parse (saved, strlen (saved), again, NULL, NULL, NULL, NULL));
          g_assert_true (vc_estimate_inputs_equal (e, again));
        }
      g_assert_true (e1 == NULL || g_utf8_validate (e1->message, -1, NULL));
      g_assert_true (e2 == NULL || g_utf8_validate (e2->message, -1, NULL));
      g_assert_true (e3 == NULL || g_utf8_validate (e3->message, -1, NULL));
      g_test_message ("%s: %s", name, e1 ? e1->message : "read");
      n++;
    }
  g_assert_cmpuint (n, >=, 4);
}

/* Found by the fuzzers: json-glib 1.6 writes 2e-08 as "2e-08.0", so a profile with such a
 * value saved with exit 0 and did not reopen. */
static void
test_exponent_numbers (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(VcEstimate) back = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *saved = NULL;
  const char *cases[][2] = {
    { "{\"a\" : 2e-08.0, \"b\" : [1e+20.0, -3e-05.0]}", "{\"a\" : 2.0e-08, \"b\" : [1.0e+20, -3.0e-05]}" },
    { "{\"a\" : \"2e-08.0\", \"b\\\"\" : 1.5e+20, \"c\" : 7.0}", "{\"a\" : \"2e-08.0\", \"b\\\"\" : 1.5e+20, \"c\" : 7.0}" },
  };
  double overhead;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *fixed = vc_json_fix_numbers (cases[i][0]);
      g_assert_cmpstr (fixed, ==, cases[i][1]);
    }
  g_object_set (e, "overhead-gb", 2e-8, "lora-percent", 0.001, NULL);
  saved = vc_profile_serialize (e, "", "", VC_UNIT_GB, NULL);
  g_assert_true (vc_profile_parse (saved, strlen (saved), back, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_object_get (back, "overhead-gb", &overhead, NULL);
  g_assert_cmpfloat (overhead, ==, 2e-8);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/reliability/config/empty", test_empty_config);
  g_test_add_func ("/reliability/config/deep", test_deep_config);
  g_test_add_func ("/reliability/profile/deep-hidden", test_deep_profile_hidden);
  g_test_add_func ("/reliability/save/read-only-folder-full-disk", test_save_read_only_folder_full_disk);
  g_test_add_func ("/reliability/save/new-full-disk", test_save_new_full_disk);
  g_test_add_func ("/reliability/save/mode-and-link", test_save_keeps_mode_and_link);
  g_test_add_func ("/reliability/utf8", test_invalid_utf8);
  g_test_add_func ("/reliability/custom-gpu-utf8", test_custom_gpu_invalid_utf8);
  g_test_add_func ("/reliability/lora-targets", test_lora_targets);
  g_test_add_func ("/reliability/huge-integers", test_huge_integers);
  g_test_add_func ("/reliability/architecture-ceiling", test_architecture_ceiling);
  g_test_add_func ("/reliability/fifo", test_fifo);
  g_test_add_func ("/reliability/odd-values", test_odd_values);
  g_test_add_func ("/reliability/active-parameters", test_active_parameters);
  g_test_add_func ("/reliability/c-locale-spaces", test_c_locale_spaces);
  g_test_add_func ("/reliability/token-suffixes", test_token_suffixes);
  g_test_add_func ("/reliability/fuzz-regressions", test_fuzz_regressions);
  g_test_add_func ("/reliability/exponent-numbers", test_exponent_numbers);
  return g_test_run ();
}
