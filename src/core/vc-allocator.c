/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-allocator.c: PyTorch's CUDA caching allocator, replayed on a list of allocations.
 *
 * The rules are those of c10/cuda/CUDACachingAllocator.cpp (DeviceCachingAllocator): round_size,
 * get_pool, get_allocation_size, get_free_block (best fit: the smallest cached block of the pool
 * that holds the request), should_split, free_block (merging with free neighbours of the same
 * segment) and, with expandable_segments, ExpandableSegment's pages. One stream, no CUDA graph,
 * max_split_size and roundup_power2_divisions left at their defaults (unlimited, off), and no
 * cudaFree: memory reserved stays reserved, as it does until empty_cache() or an out-of-memory
 * retry. Sizes are doubles: exact integers below 2^53 bytes.
 */
#define G_LOG_DOMAIN "vc-allocator"

#include "config.h"

#include <math.h>
#include <string.h>

#include "vc-allocator.h"

typedef struct
{
  double offset;
  double size;
  double requested;                /* the bytes asked for, while allocated */
  guint segment;
  gint prev, next;                 /* neighbours in the same segment, -1 at its ends */
  gboolean allocated;
  gboolean small;
  gboolean dead;                   /* merged into a neighbour */
} Block;

typedef struct
{
  double size;
  gint tail;                       /* the block at the segment's end */
} Segment;

/* A free block's key, kept in the free list itself so that searching touches one array */
typedef struct
{
  double size;
  double offset;
  guint segment;
  guint index;
} FreeEntry;

/* A pool's free blocks, sorted by entry_compare(), in chunks of at most FREE_CHUNK: a search
 * bisects the chunks, then the entries of one; an insertion or a removal moves the entries of
 * one chunk (a replay's pool holds up to a few hundred free blocks) */
#define FREE_CHUNK 16

typedef struct
{
  guint len;
  FreeEntry entries[FREE_CHUNK];
} FreeChunk;

/* `lasts` holds each chunk's last entry side by side, so that bisecting the chunks reads one
 * array instead of a chunk each step */
typedef struct
{
  FreeChunk **chunks;
  FreeEntry *lasts;
  guint n_chunks, size;
} FreeList;

struct _VcAllocator
{
  gboolean expandable;
  GArray *blocks;                  /* Block */
  GArray *segments;                /* Segment */
  FreeList free_blocks[2];         /* large pool, small pool */
  gint expandable_segment[2];      /* the growing segment of each pool, -1 before the first */
  double allocated, reserved, peak_allocated, peak_reserved;
  double requested, peak_requested;  /* the bytes asked for, before any rounding */
};

/* round_size(): at least kMinBlockSize, in multiples of it */
double
vc_allocator_round_size (double bytes)
{
  if (bytes < VC_ALLOCATOR_MIN_BLOCK)
    return VC_ALLOCATOR_MIN_BLOCK;
  return VC_ALLOCATOR_MIN_BLOCK * ceil (bytes / VC_ALLOCATOR_MIN_BLOCK);
}

/* get_allocation_size(): what cudaMalloc is asked for when no cached block holds a request */
double
vc_allocator_segment_size (double rounded)
{
  if (rounded <= VC_ALLOCATOR_SMALL_SIZE)
    return VC_ALLOCATOR_SMALL_BUFFER;
  if (rounded < VC_ALLOCATOR_MIN_LARGE)
    return VC_ALLOCATOR_LARGE_BUFFER;
  return VC_ALLOCATOR_ROUND_LARGE * ceil (rounded / VC_ALLOCATOR_ROUND_LARGE);
}

/* The free blocks of a pool in BlockComparatorSize's order: by size, then address (segment,
 * then offset within it). */
static inline int
entry_compare (const FreeEntry *x,
               const FreeEntry *y)
{
  if (x->size != y->size)
    return x->size < y->size ? -1 : 1;
  if (x->segment != y->segment)
    return x->segment < y->segment ? -1 : 1;
  if (x->offset != y->offset)
    return x->offset < y->offset ? -1 : 1;
  return 0;
}

VcAllocator *
vc_allocator_new (gboolean expandable_segments)
{
  VcAllocator *self = g_new0 (VcAllocator, 1);

  self->expandable = expandable_segments;
  self->blocks = g_array_new (FALSE, FALSE, sizeof (Block));
  self->segments = g_array_new (FALSE, FALSE, sizeof (Segment));
  for (guint i = 0; i < 2; i++)
    self->expandable_segment[i] = -1;
  return self;
}

void
vc_allocator_free (VcAllocator *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->blocks);
  g_array_unref (self->segments);
  for (guint i = 0; i < 2; i++)
    {
      for (guint c = 0; c < self->free_blocks[i].n_chunks; c++)
        g_free (self->free_blocks[i].chunks[c]);
      g_free (self->free_blocks[i].chunks);
      g_free (self->free_blocks[i].lasts);
    }
  g_free (self);
}

static Block *
block_at (const VcAllocator *self,
          gint               i)
{
  return &g_array_index (self->blocks, Block, i);
}

static Segment *
segment_at (const VcAllocator *self,
            guint              i)
{
  return &g_array_index (self->segments, Segment, i);
}

static FreeEntry
entry_of (const VcAllocator *self,
          guint              index)
{
  const Block *b = block_at (self, index);

  return (FreeEntry) { .size = b->size, .segment = b->segment, .offset = b->offset, .index = index };
}

/* The position of the first entry not before `key`: chunk `*c` (n_chunks: none), entry `*at` */
static void
free_list_lower_bound (const FreeList  *list,
                       const FreeEntry *key,
                       guint           *c,
                       guint           *at)
{
  guint lo = 0, hi = list->n_chunks;
  const FreeChunk *chunk;

  /* the first chunk whose last entry is not before the key */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (entry_compare (&list->lasts[mid], key) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  *c = lo;
  *at = 0;
  if (lo == list->n_chunks)
    return;
  chunk = list->chunks[lo];
  hi = chunk->len;
  lo = 0;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (entry_compare (&chunk->entries[mid], key) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  *at = lo;
}

/* A new empty chunk at position `c` of the list */
static FreeChunk *
free_list_new_chunk (FreeList *list,
                     guint     c)
{
  FreeChunk *chunk = g_new (FreeChunk, 1);

  chunk->len = 0;
  if (list->n_chunks == list->size)
    {
      list->size = MAX (4u, 2 * list->size);
      list->chunks = g_renew (FreeChunk *, list->chunks, list->size);
      list->lasts = g_renew (FreeEntry, list->lasts, list->size);
    }
  memmove (&list->chunks[c + 1], &list->chunks[c], (list->n_chunks - c) * sizeof (FreeChunk *));
  memmove (&list->lasts[c + 1], &list->lasts[c], (list->n_chunks - c) * sizeof (FreeEntry));
  list->chunks[c] = chunk;
  list->n_chunks++;
  return chunk;
}

static void
free_list_add (VcAllocator *self,
               guint        index)
{
  FreeList *list = &self->free_blocks[block_at (self, index)->small];
  FreeEntry key = entry_of (self, index);
  FreeChunk *chunk;
  guint c, at;

  free_list_lower_bound (list, &key, &c, &at);
  if (list->n_chunks == 0)
    free_list_new_chunk (list, 0);
  else if (c == list->n_chunks)
    {
      /* after every entry: at the end of the last chunk */
      c = list->n_chunks - 1;
      at = list->chunks[c]->len;
    }
  chunk = list->chunks[c];
  if (chunk->len == FREE_CHUNK)
    {
      /* a full chunk gives its upper half to a new one after it */
      FreeChunk *upper = free_list_new_chunk (list, c + 1);

      upper->len = FREE_CHUNK / 2;
      memcpy (upper->entries, &chunk->entries[FREE_CHUNK / 2], (FREE_CHUNK / 2) * sizeof (FreeEntry));
      chunk->len = FREE_CHUNK / 2;
      list->lasts[c] = chunk->entries[chunk->len - 1];
      list->lasts[c + 1] = upper->entries[upper->len - 1];
      if (at > FREE_CHUNK / 2)
        {
          chunk = upper;
          at -= FREE_CHUNK / 2;
          c++;
        }
    }
  memmove (&chunk->entries[at + 1], &chunk->entries[at], (chunk->len - at) * sizeof (FreeEntry));
  chunk->entries[at] = key;
  chunk->len++;
  list->lasts[c] = chunk->entries[chunk->len - 1];
}

/* Removes entry `at` of chunk `c` */
static void
free_list_remove_at (FreeList *list,
                     guint     c,
                     guint     at)
{
  FreeChunk *chunk = list->chunks[c];

  memmove (&chunk->entries[at], &chunk->entries[at + 1], (chunk->len - at - 1) * sizeof (FreeEntry));
  chunk->len--;
  if (chunk->len == 0)
    {
      g_free (chunk);
      memmove (&list->chunks[c], &list->chunks[c + 1], (list->n_chunks - c - 1) * sizeof (FreeChunk *));
      memmove (&list->lasts[c], &list->lasts[c + 1], (list->n_chunks - c - 1) * sizeof (FreeEntry));
      list->n_chunks--;
    }
  else
    list->lasts[c] = chunk->entries[chunk->len - 1];
}

static void
free_list_remove (VcAllocator *self,
                  guint        index)
{
  FreeList *list = &self->free_blocks[block_at (self, index)->small];
  FreeEntry key = entry_of (self, index);
  guint c, at;

  free_list_lower_bound (list, &key, &c, &at);
  g_assert (c < list->n_chunks && entry_compare (&list->chunks[c]->entries[at], &key) == 0);
  free_list_remove_at (list, c, at);
}

/* get_free_block(): the smallest free block that holds `rounded`, the lowest address among
 * equals, taken off the free list; -1 when none does */
static gint
take_free (VcAllocator *self,
           gboolean     small,
           double       rounded)
{
  FreeList *list = &self->free_blocks[small];
  FreeEntry key = { .size = rounded, .segment = 0, .offset = -1 };
  guint c, at, index;

  free_list_lower_bound (list, &key, &c, &at);
  if (c == list->n_chunks)
    return -1;
  index = list->chunks[c]->entries[at].index;
  free_list_remove_at (list, c, at);
  return index;
}

static void
add_reserved (VcAllocator *self,
              double       bytes)
{
  self->reserved += bytes;
  self->peak_reserved = MAX (self->peak_reserved, self->reserved);
}

static guint
new_block (VcAllocator *self,
           guint        segment,
           double       offset,
           double       size,
           gboolean     small)
{
  Block b = { .offset = offset, .size = size, .segment = segment, .prev = -1, .next = -1,
              .small = small };

  g_array_append_val (self->blocks, b);
  return self->blocks->len - 1;
}

/* alloc_block(): a new segment of get_allocation_size() bytes, one free block, not on the free
 * list: the request takes it at once */
static guint
new_segment (VcAllocator *self,
             gboolean     small,
             double       rounded)
{
  Segment seg = { .size = vc_allocator_segment_size (rounded) };
  guint index;

  g_array_append_val (self->segments, seg);
  index = new_block (self, self->segments->len - 1, 0, seg.size, small);
  segment_at (self, self->segments->len - 1)->tail = index;
  add_reserved (self, seg.size);
  return index;
}

/* ExpandableSegment::map(): the pool's one segment grows by whole pages (2 MiB for the small
 * pool, 20 MiB for the large one) at its end, joining a free block already there; the block
 * returned is off the free list, as the request takes it at once */
static guint
expand (VcAllocator *self,
        gboolean     small,
        double       rounded)
{
  double page = small ? VC_ALLOCATOR_SMALL_BUFFER : VC_ALLOCATOR_LARGE_BUFFER;
  gint s = self->expandable_segment[small];
  Segment *seg;
  double add;
  guint index;

  if (s < 0)
    {
      Segment fresh = { .size = 0, .tail = -1 };

      g_array_append_val (self->segments, fresh);
      s = self->expandable_segment[small] = self->segments->len - 1;
    }
  seg = segment_at (self, s);
  if (seg->tail >= 0 && !block_at (self, seg->tail)->allocated)
    {
      gint index_tail = seg->tail;
      Block *tail;

      free_list_remove (self, index_tail);
      tail = block_at (self, index_tail);
      add = page * ceil ((rounded - tail->size) / page);
      tail->size += add;
      seg->size += add;
      add_reserved (self, add);
      return index_tail;
    }
  add = page * ceil (rounded / page);
  index = new_block (self, s, seg->size, add, small);
  seg = segment_at (self, s);
  if (seg->tail >= 0)
    {
      block_at (self, seg->tail)->next = index;
      block_at (self, index)->prev = seg->tail;
    }
  seg->tail = index;
  seg->size += add;
  add_reserved (self, add);
  return index;
}

/* should_split(): the small pool and expandable segments split when a whole 512-byte block
 * remains; the large pool only when more than 1 MiB does */
static gboolean
should_split (const VcAllocator *self,
              const Block       *b,
              double             rounded)
{
  double remaining = b->size - rounded;

  if (b->small || self->expandable)
    return remaining >= VC_ALLOCATOR_MIN_BLOCK;
  return remaining > VC_ALLOCATOR_SMALL_SIZE;
}

guint
vc_allocator_malloc (VcAllocator *self,
                     double       bytes)
{
  double rounded = vc_allocator_round_size (MAX (0.0, bytes));
  gboolean small = rounded <= VC_ALLOCATOR_SMALL_SIZE;
  gint index = take_free (self, small, rounded);
  Block *b;

  if (index < 0)
    index = self->expandable ? expand (self, small, rounded) : new_segment (self, small, rounded);
  b = block_at (self, index);
  if (should_split (self, b, rounded))
    {
      double rest = b->size - rounded;
      guint segment = b->segment;
      guint r = new_block (self, segment, b->offset + rounded, rest, small);
      Block *split;

      b = block_at (self, index);
      split = block_at (self, r);
      split->prev = index;
      split->next = b->next;
      if (b->next >= 0)
        block_at (self, b->next)->prev = r;
      else
        segment_at (self, segment)->tail = r;
      b->next = r;
      b->size = rounded;
      free_list_add (self, r);
    }
  b->allocated = TRUE;
  b->requested = MAX (0.0, bytes);
  self->allocated += b->size;
  self->peak_allocated = MAX (self->peak_allocated, self->allocated);
  self->requested += b->requested;
  self->peak_requested = MAX (self->peak_requested, self->requested);
  return index;
}

/* merges free block `from` into its free neighbour `into` (try_merge_blocks) */
static void
merge (VcAllocator *self,
       guint        into,
       guint        from)
{
  Block *a = block_at (self, into);
  Block *b = block_at (self, from);
  Segment *seg = segment_at (self, a->segment);

  free_list_remove (self, from);
  if (b->offset < a->offset)
    {
      a->offset = b->offset;
      a->prev = b->prev;
      if (b->prev >= 0)
        block_at (self, b->prev)->next = into;
    }
  else
    {
      a->next = b->next;
      if (b->next >= 0)
        block_at (self, b->next)->prev = into;
      else
        seg->tail = into;
    }
  a->size += b->size;
  b->dead = TRUE;
}

void
vc_allocator_release (VcAllocator *self,
                      guint        handle)
{
  Block *b;

  g_return_if_fail (handle < self->blocks->len);
  b = block_at (self, handle);
  g_return_if_fail (b->allocated && !b->dead);
  b->allocated = FALSE;
  self->allocated -= b->size;
  self->requested -= b->requested;
  b->requested = 0;
  if (b->prev >= 0 && !block_at (self, b->prev)->allocated)
    {
      guint prev = b->prev;

      merge (self, handle, prev);
    }
  b = block_at (self, handle);
  if (b->next >= 0 && !block_at (self, b->next)->allocated)
    {
      guint next = b->next;

      merge (self, handle, next);
    }
  free_list_add (self, handle);
}

double
vc_allocator_allocated (const VcAllocator *self)
{
  return self->allocated;
}

double
vc_allocator_reserved (const VcAllocator *self)
{
  return self->reserved;
}

double
vc_allocator_peak_allocated (const VcAllocator *self)
{
  return self->peak_allocated;
}

/* The most bytes asked for at once, before rounding and whole blocks: the tensors' own sizes,
 * as an estimate counts them (what torch.cuda.memory_stats() calls requested_bytes) */
double
vc_allocator_peak_requested (const VcAllocator *self)
{
  return self->peak_requested;
}

double
vc_allocator_peak_reserved (const VcAllocator *self)
{
  return self->peak_reserved;
}

guint
vc_allocator_n_segments (const VcAllocator *self)
{
  return self->segments->len;
}
