"""CPU children's tensor memory placed as CUDA's caching allocator places a GPU's.

Under the CPU interpreter a tensor's memory comes from PyTorch's CPU allocator (glibc's
`posix_memalign(.., 64, n)`, `free`); on the GPU from CUDA's caching allocator, which the GPU
child runs with `expandable_segments:True` (evaluator.sandbox). Its blocks start on 512 bytes
and are packed: a request is rounded up to 512 bytes, those of up to 1 MiB come from the small
pool, larger ones from the large pool, each pool one address range mapped 2 MiB (small) or
20 MiB (large) at a time as it grows; the smallest free block that fits is split (best fit by
size, then address; a block that can grow into the unmapped space after it counts as that
large), freed blocks merge with free neighbours and are handed out again first. So two tensors
made one after the other lie size-rounded-to-512 apart, a freed block of the same size comes
back at the same address, and only a pool's first block is on 2 MiB. Red teams told the CPU
check from the H200 by all of these: `data_ptr() % 512` (s46, glibc aligns to 64), a block of
1 MiB + 512 off 2 MiB and the 512-byte gap between two small tensors (rt24: `b.data_ptr() -
a.data_ptr()`, and pointer values read in a kernel).

A CPU sandbox runs with a small library preloaded (built once per Python installation with
the host's C compiler, beside the interpreter's prefix, which the sandbox sees read-only) that
does CUDA's bookkeeping (c10/cuda/CUDACachingAllocator.cpp: round_size, get_free_block with its
expandable-size rule, should_split, try_merge_blocks, find_expandable_block, map_block, and on
an allocation that cannot be mapped, release_cached_blocks' unmapping of free pages and one
retry) over address space of its own: each pool 1 1/8 of the H200's memory (h200.json's
total_memory) as CUDA reserves it, the small pool's first and the large pool's right after, at
the addresses a fresh H200 process's pools start at (a forked child; else a random 2 MiB
boundary well below the kernel's mappings), mapped page by page with
MAP_FIXED_NOREPLACE. A forked child (each candidate's and reference's, forked from the
sandbox's zygote) starts pools of its own, as a GPU child's fresh CUDA context does, so what
the zygote's start-up left in them is never handed out again; a fork that stands in for the
child (a pinned forward, evaluator.autotune_forks: `keep_pools`) keeps the child's pools as they
stand, so that its fresh memory is not at a new random place, far from its inputs. Only PyTorch's CPU allocations (posix_memalign with c10's alignment, 64)
go there; free/realloc/malloc_usable_size of any other pointer are glibc's. The memory of a free
block is given back to the kernel (madvise, its address stays the pool's: no allocation moves)
from 32 MiB up at once, as glibc unmaps a large chunk, and every free block's before the pools
map more while 256 MiB or more lies free, so a child holds no more than glibc would.
What cannot be the GPU's: the pools' absolute addresses (and where a fresh child's pools
stand after PyTorch's own start-up allocations), single stream only. Without a compiler the
CPU sandbox runs without it, the log says so once and every verdict's sandbox details say
`allocator_alignment: 64`.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

log = logging.getLogger(__name__)

ALIGNMENT = 512  # every block's (kMinBlockSize); a pool's first block is on 2 MiB
_TOTAL_MEMORY = json.loads((Path(__file__).with_name("h200.json")).read_text())["properties"]["total_memory"]
_SOURCE = r"""
/* CUDA's caching allocator (c10/cuda/CUDACachingAllocator.cpp, expandable_segments:True, as the
   GPU child runs) over the addresses PyTorch's CPU allocator hands out: posix_memalign(.., 64, n)
   is c10's alloc_cpu, free() its free_cpu. Every other allocation is glibc's, untouched. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define TORCH_ALIGNMENT 64            /* c10's gAlignment: what alloc_cpu asks for */
#define MIN_BLOCK 512ULL              /* kMinBlockSize */
#define SMALL_SIZE 1048576ULL         /* kSmallSize */
#define SMALL_PAGE 2097152ULL         /* kSmallBuffer: the small pool's mapping granule */
#define LARGE_PAGE 20971520ULL        /* kLargeBuffer: the large pool's */
#define TOTAL_MEMORY @TOTAL_MEMORY@ULL /* the H200's totalGlobalMem (evaluator/h200.json) */
/* where a fresh H200 process's pools start (session 47, .device alloc_diff_probe.py under
   expandable_segments: the first small block at 0x302000000, the first large one 157.28125 GiB
   after it, 16 MiB past a 20 MiB boundary) */
#define GPU_SMALL_BASE 0x302000000ULL
#define GPU_LARGE_OFFSET 168879456256ULL
#define RELEASE_AT (32ULL << 20)      /* a free block's pages go back to the kernel from here up */
#define SWEEP_AT (256ULL << 20)       /* and every free block's, before mapping more, past this */
#define NBUCKETS 65536

typedef struct blk {
    uintptr_t ptr;
    size_t size;
    int allocated, mapped;
    struct blk *prev, *next;   /* neighbours in address order */
    struct blk *lprev, *lnext; /* the pool's list of free (mapped) or unmapped blocks */
    struct blk *hnext;         /* allocated blocks by address */
    struct pool *pool;
} blk;

typedef struct pool {
    uintptr_t base;
    size_t reserve, page;
    blk *head, *free_list, *unmapped;
    size_t free_bytes;
} pool_t;

typedef int (*memalign_fn)(void **, size_t, size_t);
typedef void (*free_fn)(void *);
typedef void *(*realloc_fn)(void *, size_t);
typedef size_t (*usable_fn)(void *);
extern void __libc_free(void *);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void *__libc_malloc(size_t);

static memalign_fn real_memalign;
static free_fn real_free;
static realloc_fn real_realloc;
static usable_fn real_usable;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
#define GENERATIONS 8
typedef struct {
    pool_t pools[2]; /* 0: small (<= 1 MiB), 1: large */
    uintptr_t lo, hi; /* both pools' address range */
} gen_t;
/* A forked child starts pools of its own, as a GPU child's CUDA context does: what its parent
   left (a zygote's start-up) is freed where it lies but never handed out again. */
static gen_t gens[GENERATIONS];
static volatile int ngen; /* gens[ngen - 1] allocates; 0: none yet */
static pool_t *pools;
static int arena_off;
static blk *buckets[NBUCKETS];
static blk *spare_nodes;

static blk *node(void) {
    if (!spare_nodes) {
        size_t n = 65536 / sizeof(blk);
        blk *chunk = mmap(0, n * sizeof(blk), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (chunk == MAP_FAILED) return 0;
        for (size_t i = 0; i < n; i++) { chunk[i].lnext = spare_nodes; spare_nodes = &chunk[i]; }
    }
    blk *b = spare_nodes;
    spare_nodes = b->lnext;
    memset(b, 0, sizeof *b);
    return b;
}
static void drop_node(blk *b) { b->lnext = spare_nodes; spare_nodes = b; }

static size_t bucket(uintptr_t p) { return (p >> 9) % NBUCKETS; }
static void hash_add(blk *b) { size_t h = bucket(b->ptr); b->hnext = buckets[h]; buckets[h] = b; }
static blk *hash_take(uintptr_t p) {
    for (blk **at = &buckets[bucket(p)]; *at; at = &(*at)->hnext)
        if ((*at)->ptr == p) { blk *b = *at; *at = b->hnext; b->hnext = 0; return b; }
    return 0;
}
static blk *hash_find(uintptr_t p) {
    for (blk *b = buckets[bucket(p)]; b; b = b->hnext) if (b->ptr == p) return b;
    return 0;
}

static void list_add(blk **list, blk *b) {
    b->lprev = 0; b->lnext = *list;
    if (*list) (*list)->lprev = b;
    *list = b;
}
static void list_del(blk **list, blk *b) {
    if (b->lprev) b->lprev->lnext = b->lnext; else *list = b->lnext;
    if (b->lnext) b->lnext->lprev = b->lprev;
    b->lprev = b->lnext = 0;
}
static void free_add(pool_t *p, blk *b) { list_add(&p->free_list, b); p->free_bytes += b->size; }
static void free_del(pool_t *p, blk *b) { list_del(&p->free_list, b); p->free_bytes -= b->size; }

/* The pages wholly inside a free block hold nothing anyone can ask for: the kernel may have
   them back (its address stays the pool's, so no allocation's address changes). */
static void release_pages(blk *b) {
    uintptr_t page = 4096, s = (b->ptr + page - 1) & ~(page - 1), e = (b->ptr + b->size) & ~(page - 1);
    if (b->mapped && e > s) madvise((void *)s, e - s, MADV_DONTNEED);
}

static int before(const blk *a, const blk *b) { /* BlockComparatorSize: size, then address */
    return a->size != b->size ? a->size < b->size : a->ptr < b->ptr;
}
static blk *successor(pool_t *p, blk *of, size_t least) { /* the next block in size order */
    blk *best = 0;
    for (blk *c = p->free_list; c; c = c->lnext)
        if (c->size >= least && (!of || before(of, c)) && (!best || before(c, best))) best = c;
    return best;
}
static size_t expandable_size(blk *b) { return b->size + (b->next && !b->next->mapped ? b->next->size : 0); }

static blk *get_free_block(pool_t *p, size_t size) {
    blk *it = successor(p, 0, size); /* lower_bound */
    if (!it) return 0;
    /* a block that can grow into the unmapped space after it counts as that large */
    for (blk *nx = successor(p, it, size); nx && expandable_size(nx) < expandable_size(it);
         nx = successor(p, it, size))
        it = nx;
    free_del(p, it);
    return it;
}

static size_t try_merge(pool_t *p, blk *dst, blk *src) {
    if (!src || src->allocated || dst->mapped != src->mapped) return 0;
    if (dst->prev == src) {
        dst->ptr = src->ptr;
        dst->prev = src->prev;
        if (dst->prev) dst->prev->next = dst; else p->head = dst;
    } else {
        dst->next = src->next;
        if (dst->next) dst->next->prev = dst;
    }
    dst->size += src->size;
    if (src->mapped) free_del(p, src); else list_del(&p->unmapped, src);
    drop_node(src);
    return 1;
}

static int set_up(pool_t *p, int small) {
    if (p->head) return 1;
    p->page = small ? SMALL_PAGE : LARGE_PAGE;
    size_t space = TOTAL_MEMORY + TOTAL_MEMORY / 8;
    p->reserve = p->page * ((space + p->page - 1) / p->page);
    blk *b = node();
    if (!b) return 0;
    b->ptr = p->base; b->size = p->reserve; b->pool = p;
    p->head = b;
    list_add(&p->unmapped, b);
    return 1;
}

static int sweep(void) {
    for (int g = 0; g < ngen; g++)
        for (int i = 0; i < 2; i++)
            for (blk *c = gens[g].pools[i].free_list; c; c = c->lnext) release_pages(c);
    return 1;
}

static int map_pages(uintptr_t at, size_t len) {
    if (pools[0].free_bytes + pools[1].free_bytes >= SWEEP_AT) sweep();
    void *got = mmap((void *)at, len, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    if (got == MAP_FAILED) return 0;
    if ((uintptr_t)got != at) { munmap(got, len); return 0; } /* a kernel without NOREPLACE */
    return 1;
}

static int map_block(pool_t *p, blk *b, size_t size) {
    uintptr_t off = b->ptr - p->base;
    size_t begin = off / p->page, end = (off + size + p->page - 1) / p->page;
    size_t len = (end - begin) * p->page;
    if (!len || !map_pages(p->base + begin * p->page, len)) return 0;
    list_del(&p->unmapped, b);
    b->mapped = 1;
    if (len < b->size) {
        blk *r = node();
        if (!r) { munmap((void *)b->ptr, len); b->mapped = 0; list_add(&p->unmapped, b); return 0; }
        r->ptr = b->ptr + len; r->size = b->size - len; r->mapped = 0; r->pool = p;
        r->prev = b; r->next = b->next;
        if (b->next) b->next->prev = r;
        b->next = r;
        list_add(&p->unmapped, r);
        b->size = len;
    }
    try_merge(p, b, b->prev);
    try_merge(p, b, b->next);
    free_add(p, b);
    return 1;
}

static blk *find_expandable_block(pool_t *p, size_t size) {
    blk *best = 0; /* the unmapped block at the lowest address with room (with a free one before it) */
    for (blk *u = p->unmapped; u; u = u->lnext) {
        if (best && best->ptr < u->ptr) continue;
        blk *c = u->prev && !u->prev->allocated ? u->prev : u;
        size_t bytes = 0;
        for (blk *d = c; d && bytes < size && !d->allocated; d = d->next) bytes += d->size;
        if (bytes >= size) best = u;
    }
    if (!best) return 0;
    return best->prev && !best->prev->allocated ? best->prev : best;
}

static blk *alloc_expandable(pool_t *p, size_t size) {
    blk *c = find_expandable_block(p, size);
    if (!c) return 0;
    if (!c->mapped && !map_block(p, c, c->size < size ? c->size : size)) return 0;
    while (c->size < size) {
        size_t remaining = size - c->size;
        blk *n = c->next;
        if (!n || n->mapped || !map_block(p, n, remaining < n->size ? remaining : n->size)) return 0;
        c = n;
    }
    free_del(p, c);
    return c;
}

static void unmap_block(pool_t *p, blk *b) { /* OOM: a free block's whole pages unmapped */
    uintptr_t off = b->ptr - p->base;
    size_t begin = (off + p->page - 1) / p->page, end = (off + b->size) / p->page;
    if (begin >= end) return;
    blk *f1 = node(), *f2 = node();
    if (!f1 || !f2) { if (f1) drop_node(f1); return; }
    uintptr_t us = p->base + begin * p->page;
    size_t ulen = (end - begin) * p->page;
    free_del(p, b);
    if (us > b->ptr) {
        blk *f = f1; f1 = 0;
        f->ptr = b->ptr; f->size = us - b->ptr; f->mapped = 1; f->pool = p;
        f->prev = b->prev; f->next = b;
        if (b->prev) b->prev->next = f; else p->head = f;
        b->prev = f;
        free_add(p, f);
    }
    size_t after = b->ptr + b->size - (us + ulen);
    if (after) {
        blk *f = f2; f2 = 0;
        f->ptr = us + ulen; f->size = after; f->mapped = 1; f->pool = p;
        f->prev = b; f->next = b->next;
        if (b->next) b->next->prev = f;
        b->next = f;
        free_add(p, f);
    }
    if (f1) drop_node(f1);
    if (f2) drop_node(f2);
    munmap((void *)us, ulen);
    b->ptr = us; b->size = ulen; b->mapped = 0;
    try_merge(p, b, b->prev);
    try_merge(p, b, b->next);
    list_add(&p->unmapped, b);
}

static void release_cached_blocks(void) {
    for (int i = 0; i < 2; i++) {
        pool_t *p = &pools[i];
        size_t n = 0;
        for (blk *c = p->free_list; c; c = c->lnext) n++;
        blk **all = n ? mmap(0, n * sizeof(blk *), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) : 0;
        if (all == MAP_FAILED) continue;
        size_t k = 0;
        for (blk *c = p->free_list; c; c = c->lnext) all[k++] = c;
        for (size_t j = 0; j < k; j++) unmap_block(p, all[j]);
        if (all) munmap(all, n * sizeof(blk *));
    }
}

static void *arena_alloc(size_t orig) {
    if (orig > (1ULL << 56)) return 0;
    size_t size = orig < MIN_BLOCK ? MIN_BLOCK : MIN_BLOCK * ((orig + MIN_BLOCK - 1) / MIN_BLOCK);
    int small = size <= SMALL_SIZE;
    pool_t *p = &pools[small ? 0 : 1];
    if (size > p->reserve && p->head) return 0;
    if (!set_up(p, small)) return 0;
    blk *b = get_free_block(p, size);
    if (!b) b = alloc_expandable(p, size);
    if (!b) { release_cached_blocks(); b = alloc_expandable(p, size); }
    if (!b) return 0;
    if (b->size - size >= MIN_BLOCK) { /* should_split (expandable segments: both pools) */
        blk *n = node();
        if (!n) { free_add(p, b); return 0; }
        n->ptr = b->ptr; n->size = size; n->mapped = 1; n->pool = p;
        n->prev = b->prev; n->next = b;
        if (n->prev) n->prev->next = n; else p->head = n;
        b->prev = n;
        b->ptr += size; b->size -= size;
        free_add(p, b);
        b = n;
    }
    b->allocated = 1;
    hash_add(b);
    return (void *)b->ptr;
}

static int arena_free(uintptr_t ptr) {
    blk *b = hash_take(ptr);
    if (!b) return 0;
    pool_t *p = b->pool;
    b->allocated = 0;
    try_merge(p, b, b->prev);
    try_merge(p, b, b->next);
    free_add(p, b);
    if (b->size >= RELEASE_AT) release_pages(b);
    return 1;
}

static int ours(const void *ptr) {
    uintptr_t a = (uintptr_t)ptr;
    for (int g = 0; g < ngen; g++) if (a >= gens[g].lo && a < gens[g].hi) return 1;
    return 0;
}

/* Both pools' address space, as CUDA reserves it (1 1/8 of the device's memory each, the small
   pool's first), placed well below where the kernel maps anything now, at a random 2 MiB
   boundary, mapped only page by page as the pools grow. */
static int free_at(uintptr_t at) {
    void *p = mmap((void *)at, SMALL_PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == MAP_FAILED) return 0;
    munmap(p, SMALL_PAGE);
    return p == (void *)at;
}

static void new_generation(void) {
    if (ngen == GENERATIONS) return; /* a fork of a fork of ...: its parent's last pools */
    void *probe = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (probe == MAP_FAILED) return;
    munmap(probe, 4096);
    uint64_t r = 0;
    if (getrandom(&r, sizeof r, GRND_NONBLOCK) != sizeof r) r = (uint64_t)(uintptr_t)probe ^ ((uint64_t)getpid() << 21);
    uintptr_t top = (uintptr_t)probe;
    size_t space = TOTAL_MEMORY + TOTAL_MEMORY / 8;
    size_t small_res = SMALL_PAGE * ((space + SMALL_PAGE - 1) / SMALL_PAGE);
    size_t large_res = LARGE_PAGE * ((space + LARGE_PAGE - 1) / LARGE_PAGE);
    if (top < (16ULL << 40)) return;
    for (int attempt = 0; attempt < 17; attempt++) {
        /* a forked child's pools first where the H200's fresh process had them (the small
           pool at GPU_SMALL_BASE, the large one GPU_LARGE_OFFSET after it: an address's size
           told a CPU process's high mappings from CUDA's low ones), else at random */
        int gpu = attempt == 0 && ngen > 0;
        if (attempt == 0 && !gpu) continue;
        uintptr_t base = gpu ? GPU_SMALL_BASE : (top - (4ULL << 40) - (r % (1ULL << 40))) & ~(SMALL_PAGE - 1);
        size_t large_at = gpu ? GPU_LARGE_OFFSET : small_res;
        uintptr_t hi = base + large_at + large_res;
        int clash = 0;
        for (int g = 0; g < ngen; g++) clash |= base < gens[g].hi && gens[g].lo < hi;
        r = r * 6364136223846793005ULL + 1442695040888963407ULL;
        if (clash) continue;
        if (gpu && !(free_at(base) && free_at(base + large_at))) continue; /* taken: at random */
        gen_t *n = &gens[ngen];
        memset(n, 0, sizeof *n);
        n->pools[0].base = base;
        n->pools[1].base = base + large_at;
        n->lo = base;
        n->hi = hi;
        pools = n->pools;
        ngen++;
        return;
    }
}

/* Set around a fork that must go on as the process it forks (evaluator.autotune_forks: a pinned
   forward, held to the checked forward that runs in the parent): the fork keeps the parent's
   pools as they stand, so its fresh memory lands where the parent's would (red team s64G). */
static int keep_pools;
void krl_arena_keep_pools(int on) { keep_pools = on; }

static void lock_all(void) { pthread_mutex_lock(&lock); }
static void unlock_all(void) { pthread_mutex_unlock(&lock); }
static void fresh_child(void) { if (!keep_pools) new_generation(); pthread_mutex_unlock(&lock); }

__attribute__((constructor)) static void arena_init(void) {
    real_memalign = (memalign_fn)dlsym(RTLD_NEXT, "posix_memalign");
    real_realloc = (realloc_fn)dlsym(RTLD_NEXT, "realloc");
    real_usable = (usable_fn)dlsym(RTLD_NEXT, "malloc_usable_size");
    real_free = (free_fn)dlsym(RTLD_NEXT, "free");
    pthread_atfork(lock_all, unlock_all, fresh_child);
    new_generation();
    arena_off = !ngen;
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment != TORCH_ALIGNMENT || size == 0 || arena_off || !ngen) {
        if (real_memalign) return real_memalign(out, alignment, size);
        void *p = __libc_memalign(alignment, size);
        if (!p) return ENOMEM;
        *out = p;
        return 0;
    }
    pthread_mutex_lock(&lock);
    void *p = arena_alloc(size);
    pthread_mutex_unlock(&lock);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}

void free(void *ptr) {
    if (ptr && ours(ptr)) {
        pthread_mutex_lock(&lock);
        arena_free((uintptr_t)ptr);
        pthread_mutex_unlock(&lock);
        return;
    }
    if (real_free) real_free(ptr); else __libc_free(ptr);
}

void *realloc(void *ptr, size_t size) {
    if (ptr && ours(ptr)) { /* c10 never does; another user of posix_memalign(64) might */
        pthread_mutex_lock(&lock);
        blk *b = hash_find((uintptr_t)ptr);
        size_t old = b ? b->size : 0;
        pthread_mutex_unlock(&lock);
        if (!b) { errno = EINVAL; return 0; }
        void *n = __libc_malloc(size ? size : 1);
        if (!n) return 0;
        memcpy(n, ptr, old < size ? old : size);
        free(ptr);
        return n;
    }
    return real_realloc ? real_realloc(ptr, size) : __libc_realloc(ptr, size);
}

size_t malloc_usable_size(void *ptr) {
    if (ptr && ours(ptr)) {
        pthread_mutex_lock(&lock);
        blk *b = hash_find((uintptr_t)ptr);
        size_t n = b ? b->size : 0;
        pthread_mutex_unlock(&lock);
        return n;
    }
    return real_usable ? real_usable(ptr) : 0;
}
""".replace("@TOTAL_MEMORY@", str(int(_TOTAL_MEMORY)))

_lock = threading.Lock()
_built: dict[str, str | None] = {}


def keep_pools(on: bool) -> None:
    """Whether the next fork of this process keeps its pools as they stand (on: a fork that
    stands in for this process, evaluator.autotune_forks) or starts its own (off: a new child,
    as a GPU child's fresh context). A process the library is not preloaded in has nothing to
    keep: glibc's heap goes on across a fork as it is."""
    import ctypes

    setter = getattr(ctypes.CDLL(None), "krl_arena_keep_pools", None)
    if setter is not None:
        setter(int(on))


def fresh_alignment(device: str) -> int | None:
    """The alignment of a CPU child's fresh memory (the verdict's details); None on a GPU."""
    if device != "cpu":
        return None
    return ALIGNMENT if library() is not None else 64


def library() -> str | None:
    """Path of the preload library (built on first use), or None where it cannot be built."""
    digest = hashlib.sha256(_SOURCE.encode()).hexdigest()[:12]
    with _lock:
        if digest not in _built:
            _built[digest] = _build(Path(sys.prefix) / "lib" / "krl" / f"cuda-arena-{digest}.so")
        return _built[digest]


def _build(target: Path) -> str | None:
    if target.exists():
        return str(target)
    compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if compiler is None:
        log.warning("sandbox layer unavailable: no C compiler to build the CUDA-like allocator "
                    "(CPU children allocate 64-byte aligned and unpacked, unlike a GPU)")
        return None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "align.c"
            src.write_text(_SOURCE)
            built = Path(tmp) / target.name
            subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", str(built), str(src), "-ldl", "-lpthread"],
                           check=True, capture_output=True, timeout=120)
            os.replace(shutil.copy(built, target.with_suffix(".tmp")), target)  # atomic for racers
    except (OSError, subprocess.SubprocessError) as exc:
        log.warning("sandbox layer unavailable: building the CUDA-like allocator failed: %s", exc)
        return None
    return str(target)
