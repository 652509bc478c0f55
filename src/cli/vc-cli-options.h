/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-cli-options.h: vramcalc's general options, one row an option. An option that sets an
 * input of the estimate (OPT_PROPERTY) has no text of its own: its help is the property's blurb,
 * the one text that the property, --help, the man page, the completions and the window's tooltip
 * share. Options with a behaviour of their own carry their help here. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  OPT_PROPERTY,        /* --NAME VALUE sets property NAME; the help is its blurb */
  OPT_PROPERTY_ALIAS,  /* the same, under another input's name, with a help of its own */
  OPT_TRUE,            /* --NAME sets boolean property to TRUE */
  OPT_FALSE,           /* --no-NAME sets it to FALSE */
  OPT_PRESET,
  OPT_CONFIG,
  OPT_APPROXIMATE,
  OPT_MODEL,
  OPT_METHOD,
  OPT_FORMAT,
  OPT_PROFILE,
  OPT_SAVE_PROFILE,
  OPT_LIST_PRESETS,
  OPT_SEARCH,
  OPT_LIST_GPUS,
  OPT_EXPLAIN,
  OPT_HELP,
  OPT_VERSION,
  OPT_GPU,
  OPT_THIS_COMPUTER,
  OPT_LIST_LOCAL_GPUS,
  OPT_LIST_LOCAL_MODELS,
  OPT_SOLVE,
  OPT_FIT_GPU,
  OPT_GPU_COUNT,
  OPT_ZERO,
  OPT_FSDP,
  OPT_GPU_LAYERS,
  OPT_GENERATE,
  OPT_PRINT_COMMAND,
  OPT_ENGINE_VERSION,  /* the engine's release: vLLM's, or SGLang's source with --engine sglang */
  OPT_MMPROJ,          /* llama.cpp's multimodal projector file */
} VcCliOptKind;

typedef struct
{
  const char *name;
  VcCliOptKind kind;
  const char *property;
  const char *arg;
  const char *help;    /* NULL for OPT_PROPERTY: the property's blurb */
  char short_name;     /* 0: none */
} VcCliOption;

extern const VcCliOption vc_cli_options[];
extern const guint vc_cli_n_options;

const char        *vc_cli_option_help       (const VcCliOption *opt);
const VcCliOption *vc_cli_option_alias_of  (const char        *property);

G_END_DECLS
