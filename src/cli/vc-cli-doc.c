/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-cli-doc.c: the man page (roff) and the bash, zsh and fish completions of a command, from
 * its option table (see vc-cli-doc.h). The output depends on the table alone, never on the
 * locale or the date, so that a build regenerates it byte for byte. */
#define G_LOG_DOMAIN "vramcalc"

#include "config.h"

#include <string.h>

#include "vc-cli-doc.h"

gboolean
vc_cli_doc_format_from_string (const char     *text,
                               VcCliDocFormat *format)
{
  static const char *const names[] = { "man", "bash", "zsh", "fish" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (text, names[i]) == 0)
      {
        *format = (VcCliDocFormat) i;
        return TRUE;
      }
  return FALSE;
}

/* "a|b|c": the values an option accepts; a placeholder ("N", "FILE") has no "|" */
static gboolean
is_choice (const VcCliDocOption *opt)
{
  return opt->arg != NULL && strchr (opt->arg, '|') != NULL;
}

/* ---- man page ------------------------------------------------------------------------------------ */

/* Text for roff: backslashes escaped, in ASCII, a line never starting with a control character, and
 * every "-" of an option name ("--list-gpus") a minus, so that it can be copied; with @minus,
 * every "-" (command lines). */
static void
append_roff (GString    *out,
             const char *text,
             gboolean    minus)
{
  gboolean in_option = FALSE;

  if (text[0] == '.' || text[0] == '\'')
    g_string_append (out, "\\&");
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '-' && p[1] == '-' && (p == text || !g_ascii_isalnum (p[-1])))
        in_option = TRUE;
      else if (!g_ascii_isalnum (*p) && *p != '-')
        in_option = FALSE;
      if (*p == '\\')
        g_string_append (out, "\\e");
      else if ((guchar) *p >= 0x80)
        {
          /* roff input is ASCII: "×" becomes \[u00D7] */
          g_string_append_printf (out, "\\[u%04X]", g_utf8_get_char (p));
          p = g_utf8_next_char (p) - 1;
        }
      else if (*p == '-' && (minus || in_option))
        g_string_append (out, "\\-");
      else if (*p == '\n')
        g_string_append (out, "\n.br\n");
      else
        g_string_append_c (out, *p);
    }
}

static void
append_man_option (GString              *out,
                   const VcCliDocOption *opt)
{
  g_string_append (out, ".TP\n");
  if (opt->short_name != 0)
    g_string_append_printf (out, "\\fB\\-%c\\fR, ", opt->short_name);
  g_string_append (out, "\\fB\\-\\-");
  append_roff (out, opt->name, TRUE);
  g_string_append (out, "\\fR");
  if (opt->arg != NULL)
    {
      g_string_append (out, " \\fI");
      append_roff (out, opt->arg, TRUE);
      g_string_append (out, "\\fR");
    }
  g_string_append_c (out, '\n');
  append_roff (out, opt->help, FALSE);
  g_string_append_c (out, '\n');
}

static char *
write_man (const VcCliDoc *doc)
{
  GString *out = g_string_new (NULL);
  g_autofree char *upper = g_ascii_strup (doc->program, -1);

  g_string_append_printf (out, ".\\\" Written by %s --generate man from its option table; do not edit.\n",
                          doc->program);
  g_string_append_printf (out, ".TH %s 1 \"\" \"%s %s\" \"User Commands\"\n", upper, doc->program, doc->version);
  g_string_append_printf (out, ".SH NAME\n%s \\- ", doc->program);
  append_roff (out, doc->summary, FALSE);
  g_string_append_printf (out, "\n.SH SYNOPSIS\n.B %s\n[\\fIOPTION\\fR]...\n.SH DESCRIPTION\n", doc->program);
  append_roff (out, doc->summary, FALSE);
  g_string_append (out, "\n.PP\nA \\fIFILE\\fR given as \\fB\\-\\fR is read from standard input.\n");
  for (guint s = 0; doc->sections[s] != NULL; s++)
    {
      if (s == 0)
        g_string_append (out, ".SH OPTIONS\n");
      else
        {
          g_string_append (out, ".SS \"");
          append_roff (out, doc->sections[s], FALSE);
          g_string_append (out, "\"\n");
        }
      for (guint i = 0; i < doc->n_options; i++)
        if (doc->options[i].section == s && doc->options[i].help != NULL)
          append_man_option (out, &doc->options[i]);
    }
  g_string_append (out, ".SH EXIT STATUS\n");
  for (guint i = 0; doc->exit_status[i] != NULL && doc->exit_status[i + 1] != NULL; i += 2)
    {
      g_string_append_printf (out, ".TP\n.B %s\n", doc->exit_status[i]);
      append_roff (out, doc->exit_status[i + 1], FALSE);
      g_string_append_c (out, '\n');
    }
  g_string_append (out, ".SH EXAMPLES\n.nf\n");
  for (guint i = 0; doc->examples[i] != NULL; i++)
    {
      append_roff (out, doc->examples[i], TRUE);
      g_string_append_c (out, '\n');
    }
  g_string_append (out, ".fi\n");
  return g_string_free (out, FALSE);
}

/* ---- bash ---------------------------------------------------------------------------------------- */

/* "--a|--b" of the options that match @wanted */
static char *
option_pattern (const VcCliDoc *doc,
                gboolean      (*wanted) (const VcCliDocOption *opt))
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < doc->n_options; i++)
    if (wanted (&doc->options[i]))
      g_string_append_printf (out, "%s--%s", out->len ? "|" : "", doc->options[i].name);
  return g_string_free (out, FALSE);
}

static gboolean
takes_file (const VcCliDocOption *opt)
{
  return opt->arg != NULL && opt->file;
}

static gboolean
takes_typed_value (const VcCliDocOption *opt)
{
  return opt->arg != NULL && !opt->file && !is_choice (opt) && opt->values_option == NULL;
}

static char *
write_bash (const VcCliDoc *doc)
{
  GString *out = g_string_new (NULL);
  g_autofree char *files = option_pattern (doc, takes_file);
  g_autofree char *typed = option_pattern (doc, takes_typed_value);

  g_string_append_printf (out, "# bash completion for %s\n"
                               "# Written by %s --generate bash from its option table; do not edit.\n\n"
                               "_%s ()\n{\n"
                               "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
                               "\n"
                               "  # --NAME=VALUE: bash splits it at the \"=\"\n"
                               "  if [[ $cur == = ]]; then\n    cur=\n  elif [[ $prev == = ]]; then\n"
                               "    prev=${COMP_WORDS[COMP_CWORD-2]}\n  fi\n"
                               "  case $prev in\n",
                          doc->program, doc->program, doc->program);
  if (*files != '\0')
    g_string_append_printf (out, "    %s)\n      local IFS=$'\\n'\n      compopt -o filenames 2>/dev/null\n"
                                 "      COMPREPLY=($(compgen -f -- \"$cur\"))\n      return ;;\n", files);
  for (guint i = 0; i < doc->n_options; i++)
    {
      const VcCliDocOption *opt = &doc->options[i];

      if (is_choice (opt))
        {
          g_auto(GStrv) values = g_strsplit (opt->arg, "|", -1);
          g_autofree char *words = g_strjoinv (" ", values);

          g_string_append_printf (out, "    --%s)\n      COMPREPLY=($(compgen -W '%s' -- \"$cur\"))\n      return ;;\n",
                                  opt->name, words);
        }
      else if (opt->arg != NULL && opt->values_option != NULL)
        g_string_append_printf (out, "    --%s)\n      COMPREPLY=($(compgen -W \"$(\"${COMP_WORDS[0]}\" --%s 2>/dev/null"
                                     " | cut -d ' ' -f 1)\" -- \"$cur\"))\n      return ;;\n",
                                opt->name, opt->values_option);
    }
  /* a value to type: nothing to offer */
  if (*typed != '\0')
    g_string_append_printf (out, "    %s)\n      return ;;\n", typed);
  g_string_append (out, "  esac\n  COMPREPLY=($(compgen -W '");
  for (guint i = 0; i < doc->n_options; i++)
    {
      if (doc->options[i].short_name != 0)
        g_string_append_printf (out, "-%c ", doc->options[i].short_name);
      g_string_append_printf (out, "--%s%s", doc->options[i].name, i + 1 < doc->n_options ? " " : "");
    }
  g_string_append_printf (out, "' -- \"$cur\"))\n}\ncomplete -F _%s %s\n", doc->program, doc->program);
  return g_string_free (out, FALSE);
}

/* ---- zsh ----------------------------------------------------------------------------------------- */

/* the inside of a single-quoted _arguments spec: "'" closes and reopens the quotes; in the
 * description, brackets are escaped; in the message and action, colons */
static void
append_zsh (GString    *out,
            const char *text,
            const char *escaped)
{
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '\'')
        g_string_append (out, "'\\''");
      else
        {
          if (strchr (escaped, *p) != NULL)
            g_string_append_c (out, '\\');
          g_string_append_c (out, *p);
        }
    }
}

static void
append_zsh_option (GString              *out,
                   const VcCliDoc       *doc,
                   const VcCliDocOption *opt)
{
  g_string_append (out, " \\\n  ");
  if (opt->short_name != 0)
    g_string_append_printf (out, "'(-%c --%s)'{-%c,--%s}'", opt->short_name, opt->name, opt->short_name, opt->name);
  else
    g_string_append_printf (out, "'%s--%s%s", opt->repeatable ? "*" : "", opt->name, opt->arg != NULL ? "=" : "");
  if (opt->help != NULL)
    {
      g_string_append_c (out, '[');
      append_zsh (out, opt->help, "[]");
      g_string_append_c (out, ']');
    }
  if (opt->arg != NULL)
    {
      g_string_append_c (out, ':');
      append_zsh (out, opt->arg, ":");
      if (opt->file)
        g_string_append (out, ":_files");
      else if (is_choice (opt))
        {
          g_auto(GStrv) values = g_strsplit (opt->arg, "|", -1);
          g_autofree char *words = g_strjoinv (" ", values);

          g_string_append (out, ":(");
          append_zsh (out, words, ":()");
          g_string_append_c (out, ')');
        }
      else if (opt->values_option != NULL)
        g_string_append_printf (out, ":_%s_list --%s", doc->program, opt->values_option);
      else
        g_string_append_c (out, ':');
    }
  g_string_append_c (out, '\'');
}

static char *
write_zsh (const VcCliDoc *doc)
{
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "#compdef %s\n"
                               "# Written by %s --generate zsh from its option table; do not edit.\n\n"
                               "# the first column of a listing option's output (the last argument: _arguments\n"
                               "# puts compadd's options, such as -J GROUP, before it)\n"
                               "_%s_list ()\n{\n"
                               "  local -a ids\n"
                               "  ids=(${${(f)\"$(_call_program ids ${words[1]} ${@[-1]} 2>/dev/null)\"}%%%% *})\n"
                               "  compadd \"${@[1,-2]}\" -a ids\n}\n\n"
                               "_arguments",
                          doc->program, doc->program, doc->program);
  for (guint i = 0; i < doc->n_options; i++)
    append_zsh_option (out, doc, &doc->options[i]);
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}

/* ---- fish ---------------------------------------------------------------------------------------- */

static void
append_fish_quoted (GString    *out,
                    const char *text)
{
  g_string_append_c (out, '\'');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '\'' || *p == '\\')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '\'');
}

static char *
write_fish (const VcCliDoc *doc)
{
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "# fish completion for %s\n"
                               "# Written by %s --generate fish from its option table; do not edit.\n\n"
                               "complete -c %s -f\n",
                          doc->program, doc->program, doc->program);
  for (guint i = 0; i < doc->n_options; i++)
    {
      const VcCliDocOption *opt = &doc->options[i];

      g_string_append_printf (out, "complete -c %s", doc->program);
      if (opt->short_name != 0)
        g_string_append_printf (out, " -s %c", opt->short_name);
      g_string_append_printf (out, " -l %s", opt->name);
      if (opt->arg != NULL && opt->file)
        g_string_append (out, " -r -F");
      else if (opt->arg != NULL)
        g_string_append (out, " -x");
      if (is_choice (opt))
        {
          g_auto(GStrv) values = g_strsplit (opt->arg, "|", -1);
          g_autofree char *words = g_strjoinv (" ", values);

          g_string_append (out, " -a ");
          append_fish_quoted (out, words);
        }
      else if (opt->arg != NULL && opt->values_option != NULL)
        g_string_append_printf (out, " -a '(%s --%s 2>/dev/null | string replace -r \" .*\" \"\")'",
                                doc->program, opt->values_option);
      if (opt->help != NULL)
        {
          g_string_append (out, " -d ");
          append_fish_quoted (out, opt->help);
        }
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

/**
 * vc_cli_doc_write:
 *
 * Returns: (transfer full): the man page or the completion script of @doc
 */
char *
vc_cli_doc_write (const VcCliDoc *doc,
                  VcCliDocFormat  format)
{
  switch (format)
    {
    case VC_CLI_DOC_MAN:
      return write_man (doc);
    case VC_CLI_DOC_BASH:
      return write_bash (doc);
    case VC_CLI_DOC_ZSH:
      return write_zsh (doc);
    case VC_CLI_DOC_FISH:
    default:
      return write_fish (doc);
    }
}
