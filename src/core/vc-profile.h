/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-profile.h: estimate profiles, the files in which users keep an estimate's inputs with a
 * name and notes (format described in data/profile-format.md).
 *
 * Two levels, one code path:
 * - functions that read and write a profile (bytes or a GFile) into and out of a VcEstimate;
 *   loading validates the whole file into a scratch estimate and copies into the target only
 *   on full success, so a failed load leaves the target untouched;
 * - VcProfile, the open document of the window and the command line: a live estimate, the
 *   file it came from, its name and notes, and whether anything differs from what was last
 *   loaded or saved ("modified"), for the title and the unsaved-changes question.
 */
#pragma once

#include <gio/gio.h>

#include "vc-estimate.h"
#include "vc-json-input.h"

G_BEGIN_DECLS

#define VC_PROFILE_FORMAT   "vram-calculator-profile"
/* 3: rope-table-kind 5 ("typed in") exists; an earlier version wrote 0 for a typed-in
 * architecture (vc_profile_read_old_rope_table()) */
#define VC_PROFILE_VERSION  3
/* No real profile comes near this (one is about 2 KiB); bigger files are refused unread. */
#define VC_PROFILE_MAX_SIZE VC_JSON_INPUT_MAX_SIZE
/* For file dialogs and drop targets. */
#define VC_PROFILE_MIME_TYPE "application/json"
#define VC_PROFILE_SUFFIX    ".json"

/* ---- reading and writing -------------------------------------------------------------------- */

char     *vc_profile_serialize  (VcEstimate  *estimate,
                                 const char  *name,
                                 const char  *notes,
                                 VcUnit       unit,
                                 gsize       *length);
gboolean  vc_profile_parse      (const char  *data,
                                 gsize        length,
                                 VcEstimate  *target,
                                 char       **name,
                                 char       **notes,
                                 VcUnit      *unit,
                                 GError     **error);
GBytes   *vc_profile_read_bytes (GFile       *file,
                                 GCancellable *cancellable,
                                 GError     **error);
gboolean  vc_profile_read_file  (GFile       *file,
                                 VcEstimate  *target,
                                 char       **name,
                                 char       **notes,
                                 VcUnit      *unit,
                                 GCancellable *cancellable,
                                 GError     **error);
void      vc_profile_read_old_rope_table (VcEstimate *estimate);
gboolean  vc_profile_write_file (GFile       *file,
                                 VcEstimate  *estimate,
                                 const char  *name,
                                 const char  *notes,
                                 VcUnit       unit,
                                 GCancellable *cancellable,
                                 GError     **error);

/* ---- the open profile ------------------------------------------------------------------------ */

#define VC_TYPE_PROFILE (vc_profile_get_type ())
G_DECLARE_FINAL_TYPE (VcProfile, vc_profile, VC, PROFILE, GObject)

VcProfile  *vc_profile_new          (VcEstimate   *estimate);
VcEstimate *vc_profile_get_estimate (VcProfile    *self);
GFile      *vc_profile_get_file     (VcProfile    *self);
const char *vc_profile_get_name     (VcProfile    *self);
void        vc_profile_set_name     (VcProfile    *self,
                                     const char   *name);
const char *vc_profile_get_notes    (VcProfile    *self);
void        vc_profile_set_notes    (VcProfile    *self,
                                     const char   *notes);
VcUnit      vc_profile_get_unit     (VcProfile    *self);
void        vc_profile_set_unit     (VcProfile    *self,
                                     VcUnit        unit);
char       *vc_profile_dup_title    (VcProfile    *self);
gboolean    vc_profile_get_modified (VcProfile    *self);

gboolean    vc_profile_load         (VcProfile    *self,
                                     GFile        *file,
                                     GCancellable *cancellable,
                                     GError      **error);
gboolean    vc_profile_save         (VcProfile    *self,
                                     GFile        *file,
                                     GCancellable *cancellable,
                                     GError      **error);
void        vc_profile_load_async   (VcProfile           *self,
                                     GFile               *file,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data);
gboolean    vc_profile_load_finish  (VcProfile    *self,
                                     GAsyncResult *result,
                                     GError      **error);
void        vc_profile_save_async   (VcProfile           *self,
                                     GFile               *file,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data);
gboolean    vc_profile_save_finish  (VcProfile    *self,
                                     GAsyncResult *result,
                                     GError      **error);
GFile      *vc_profile_save_target  (GAsyncResult *result);
void        vc_profile_reset        (VcProfile    *self);
void        vc_profile_mark_saved   (VcProfile    *self);

G_END_DECLS
