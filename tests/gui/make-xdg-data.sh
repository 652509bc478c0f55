#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A data folder for XDG_DATA_DIRS as an installation makes it: the desktop file (its Exec= the
# program in the build tree) with the MIME-type index GIO reads (mimeinfo.cache), and the MIME
# types with their compiled cache.
# usage: make-xdg-data.sh OUTDIR DESKTOP_FILE MIME_XML APP_ID STAMP
set -eu
out=$1 desktop=$2 mime=$3 app_id=$4 stamp=$5
rm -rf "$out"
mkdir -p "$out/applications" "$out/mime/packages"
cp "$desktop" "$out/applications/$app_id.desktop"
cp "$mime" "$out/mime/packages/$app_id.xml"
update-desktop-database "$out/applications"
update-mime-database "$out/mime"
touch "$stamp"
