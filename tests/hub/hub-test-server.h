/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hub-test-server.h: a Hugging Face Hub on 127.0.0.1 for the tests, with libsoup's SoupServer.
 *
 * Two servers in a thread of their own: the Hub (resolve routes, the revision API) and a CDN on
 * another port, to which the Hub redirects large files as the real one does; the CDN answers
 * range requests. It serves the tree make-hub-fixtures.py writes, and misbehaves for some
 * repositories by name: tiny/gated (401 without the token), tiny/limited (429, Retry-After:
 * 120), tiny/limited-once (one 429 with Retry-After: 1, then tiny/llama-single), tiny/stall
 * (never answers), tiny/truncated (a body shorter than its Content-Length), tiny/lying
 * (Content-Length: 2^60), tiny/truncated-range (a range shorter than its Content-Range).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define HUB_TEST_TOKEN "hf_test_token"
#define HUB_TEST_COMMIT "0123456789abcdef0123456789abcdef01234567"

typedef struct _HubTestServer HubTestServer;

HubTestServer *hub_test_server_start    (const char    *repos_dir);
void           hub_test_server_stop     (HubTestServer *server);
const char    *hub_test_server_url      (HubTestServer *server);
/* requests each server answered; Authorization headers the CDN was sent */
guint          hub_test_server_n_hub    (HubTestServer *server);
guint          hub_test_server_n_cdn    (HubTestServer *server);
guint          hub_test_server_n_leaks  (HubTestServer *server);
void           hub_test_server_reset    (HubTestServer *server);

G_END_DECLS
