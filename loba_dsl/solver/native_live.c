/* The live-card machinery of CandidateGenerator in C: the same answers as its Python methods
 * live, live_shape and split (loba_dsl/solver/live_cards.py), for the decks it takes.
 *
 * A LiveTables is built once per generator (live_tables(...), from the generator's per-card tables and
 * its set and run shapes) and answers per hand:
 *   live(cards)       the live cards, sorted by processing position (a tuple of the caller's ints);
 *   live_shape(cards) SuitCanon.key of those (the suits' integers of 4-bit rank counts sorted, then the
 *                     Jokers), () when none is live, None for SHAPE_LIMIT cards or more;
 *   split(live)       (parts, jokers) exactly as CandidateGenerator.split: the same parts, in the same
 *                     order, their cards in the same order;
 *   scored_shape(cards, values)  (live_shape(cards), the sum of values over the cards): a best score's
 *                     first reading of a hand (twin: loba_dsl.solver.scores.pure_scored_shape).
 * Liveness is computed per suit (a 16-bit field of ranks held) and per rank (copies and suits held by
 * set-natural cards), as the Python's packed integers are; the run lookups (CandidateGenerator's
 * _run_groups_of: per run shape, the unions of the held ranks of the windows a suit's wilds can fill)
 * are computed here on a miss and kept in an array indexed by (wilds usable, ranks held in one suit),
 * one per run shape and wilds usable, of 1 << n_ranks entries of 8 bytes, plus their groups; past 4 MiB
 * of arrays (or 2^20 groups) every cached lookup is dropped and made again as asked for.
 *
 * Limits (live_tables returns None beyond them, and the generator keeps its Python methods): at most
 * 16 ranks and 8 suits (the Python's per-rank bytes hold a suit's bit each), a set's least size at most
 * 127, wild limits that fit a long long, SHAPE_LIMIT at most 16.  live() of 128 cards or more calls the
 * Python method given (its per-rank byte counts could carry into the next byte; so do we, by asking it).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

#define MAX_RANKS 16
#define MAX_SUITS 8
#define BYTE_LIMIT 128   /* live() of this many cards or more: the Python method */
#define SET_LO_LIMIT 127
#define SMALL_HAND 128   /* split's scratch on the stack up to this many cards */

#define SET_NATURAL 1
#define WILD 2

typedef struct {
    int lo;
    int distinct;
    long long limit;
} SetShape;

/* A cached run lookup: the ranks usable (the union of its groups) and its groups in the pool. */
typedef struct {
    uint16_t live;
    uint8_t n;
    uint8_t filled;
    uint32_t offset;
} Lookup;

typedef struct {
    int lo;
    long long limit;
    int low;          /* in CandidateGenerator._low_runs: with no wild, the windows held whole, from the lowest */
    int n_windows;
    int *size;        /* per window (smallest first, as run_windows gives them): its size and its ranks' mask */
    uint32_t *mask;
    int cap;          /* the largest window: every budget from cap up gives the same lookups */
    Lookup **cache;   /* per budget 0..cap, an array of 1 << n_ranks lookups (allocated when first used) */
} RunShape;

typedef struct {
    PyObject_HEAD
    int n_ranks, n_suits, n_codes, least_size, shape_limit;
    int8_t *rank, *suit;
    uint8_t *flags;
    int32_t *position;
    int n_sets;
    SetShape *sets;
    int n_runs;
    RunShape *runs;
    uint16_t *pool;   /* the groups of every cached lookup */
    size_t pool_used, pool_cap;
    size_t row_bytes; /* the lookup arrays allocated, in bytes */
    PyObject *pure_live;
} LiveTables;

/* Bytes of lookup arrays one LiveTables may hold, and groups in its pool: past either, every cached
 * lookup is dropped before the next is made (as the Python's MASK_TABLE_LIMIT empties a full table), so a
 * house ruleset of 16 ranks and many run shapes and wild limits keeps its memory flat.  Shipped decks
 * (13 ranks, 64 KiB an array) never reach it. */
#define ROW_BYTES_LIMIT ((size_t)4 << 20)
#define POOL_LIMIT ((size_t)1 << 20)

/* Drops every cached lookup (the arrays freed, the pool emptied). */
static void drop_lookups(LiveTables *T) {
    for (int k = 0; k < T->n_runs; k++) {
        RunShape *R = &T->runs[k];
        if (R->cache == NULL) continue;
        for (int b = 0; b <= R->cap; b++) {
            free(R->cache[b]);
            R->cache[b] = NULL;
        }
    }
    T->row_bytes = 0;
    T->pool_used = 0;
}

/* ------------------------------------------------------------------ the run lookups */

/* CandidateGenerator._run_groups_of(index, present, budget), cached; NULL with a Python error. */
static Lookup *run_lookup(LiveTables *T, RunShape *R, uint32_t present, long long budget) {
    int b = budget < R->cap ? (int)budget : R->cap;
    size_t row_size = ((size_t)1 << T->n_ranks) * sizeof(Lookup);
    /* (the callers read a lookup before asking for the next, so none is held across a drop) */
    if ((R->cache[b] == NULL && T->row_bytes + row_size > ROW_BYTES_LIMIT && T->row_bytes > 0)
        || T->pool_used + MAX_RANKS + 1 > POOL_LIMIT)
        drop_lookups(T);
    Lookup *row = R->cache[b];
    if (row == NULL) {
        row = (Lookup *)calloc((size_t)1 << T->n_ranks, sizeof(Lookup));
        if (row == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        R->cache[b] = row;
        T->row_bytes += row_size;
    }
    Lookup *e = &row[present];
    if (e->filled) return e;
    /* Each window appended is disjoint from every union so far, so brings a new held rank: at most 16. */
    uint32_t merged[MAX_RANKS + 1];
    int n = 0;
    long long n_present = __builtin_popcount(present);
    for (int w = 0; w < R->n_windows; w++) {
        uint32_t have = R->mask[w] & present;
        long long size = R->size[w];
        if (!have || size - __builtin_popcount(have) > budget || size > n_present + budget) continue;
        int i;
        for (i = 0; i < n; i++) {
            if (merged[i] & have) {
                merged[i] |= have;
                break;
            }
        }
        if (i == n) merged[n++] = have;
    }
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int i = 0; i < n && !changed; i++) {
            for (int j = i + 1; j < n; j++) {
                if (merged[i] & merged[j]) {
                    merged[i] |= merged[j];
                    memmove(&merged[j], &merged[j + 1], (size_t)(n - j - 1) * sizeof(uint32_t));
                    n--;
                    changed = 1;
                    break;
                }
            }
        }
    }
    if (T->pool_used + (size_t)n > T->pool_cap) {
        size_t cap = T->pool_cap ? T->pool_cap * 2 : 1024;
        while (cap < T->pool_used + (size_t)n) cap *= 2;
        uint16_t *pool = (uint16_t *)realloc(T->pool, cap * sizeof(uint16_t));
        if (pool == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        T->pool = pool;
        T->pool_cap = cap;
    }
    uint16_t live = 0;
    for (int i = 0; i < n; i++) {
        T->pool[T->pool_used + (size_t)i] = (uint16_t)merged[i];
        live |= (uint16_t)merged[i];
    }
    e->offset = (uint32_t)T->pool_used;
    T->pool_used += (size_t)n;
    e->n = (uint8_t)n;
    e->live = live;
    e->filled = 1;
    return e;
}

/* ------------------------------------------------------------------ the live cells of a hand */

typedef struct {
    uint32_t runs[MAX_SUITS];  /* per suit, the ranks a run candidate may use */
    uint32_t sets;             /* the ranks whose set could reach its least size */
    int any;                   /* some card is live (CandidateGenerator._live_mask non-zero) */
} Live;

/* A tuple of `o`'s items (a new reference; `o` itself if a tuple), else NULL with a TypeError saying `message`:
 * read from a copy, since an item's __index__ (or a collection) may run Python code that empties a list. */
static PyObject *tuple_of_items(PyObject *o, const char *message) {
    PyObject *t = PySequence_Tuple(o);
    if (t == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) PyErr_SetString(PyExc_TypeError, message);
    return t;
}

/* The card codes of `items` into codes[]; -1 with a Python error. */
static int read_codes(LiveTables *T, PyObject **items, Py_ssize_t n, int *codes) {
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = PyLong_AsLong(items[i]);
        if (c == -1 && PyErr_Occurred()) return -1;
        if (c < 0 || c >= T->n_codes) {
            PyErr_SetString(PyExc_IndexError, "a card code out of the deck's range");
            return -1;
        }
        codes[i] = (int)c;
    }
    return 0;
}

/* CandidateGenerator._live_mask, as per-suit and per-rank masks; -1 with a Python error. */
static int live_of(LiveTables *T, const int *codes, Py_ssize_t n, Live *out) {
    uint32_t held[MAX_SUITS] = {0};
    int count[MAX_RANKS] = {0};
    uint32_t suits[MAX_RANKS] = {0};
    long long n_wild = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int c = codes[i];
        int r = T->rank[c];
        uint8_t f = T->flags[c];
        if (r >= 0) held[T->suit[c]] |= 1u << r;
        if (f & SET_NATURAL) {
            count[r]++;
            suits[r] |= 1u << T->suit[c];
        }
        if (f & WILD) n_wild++;
    }
    const int n_ranks = T->n_ranks, n_suits = T->n_suits;
    uint32_t set_live = 0;
    for (int k = 0; k < T->n_sets; k++) {
        const SetShape *S = &T->sets[k];
        long long need = S->lo - (n_wild < S->limit ? n_wild : S->limit);
        for (int r = 0; r < n_ranks; r++) {
            if (!count[r]) continue;
            long long have = need <= 1 ? 1 : S->distinct ? __builtin_popcount(suits[r]) : count[r];
            if (have >= need) set_live |= 1u << r;
        }
    }
    int any_run = 0;
    for (int su = 0; su < n_suits; su++) out->runs[su] = 0;
    for (int k = 0; k < T->n_runs; k++) {
        RunShape *R = &T->runs[k];
        long long budget = n_wild < R->limit ? n_wild : R->limit;
        for (int su = 0; su < n_suits; su++) {
            uint32_t h = held[su];
            if (!h) continue;
            uint32_t live;
            if (budget == 0 && R->low) {  /* the windows held whole: every lo ranks in a row */
                uint32_t starts = h;
                for (int s = 1; s < R->lo; s++) starts &= h >> s;
                live = starts;
                for (int s = 1; s < R->lo; s++) live |= starts << s;
            } else {
                Lookup *e = run_lookup(T, R, h, budget);
                if (e == NULL) return -1;
                live = e->live;
            }
            out->runs[su] |= live;
            if (live) any_run = 1;
        }
    }
    out->sets = set_live;
    out->any = set_live || any_run || n_wild;
    return 0;
}

static inline int is_live(const LiveTables *T, const Live *L, int c) {
    int r = T->rank[c];
    uint8_t f = T->flags[c];
    if (r >= 0 && (L->runs[T->suit[c]] >> r & 1)) return 1;
    if ((f & SET_NATURAL) && (L->sets >> r & 1)) return 1;
    return (f & WILD) && L->any;
}

/* ------------------------------------------------------------------ the methods */

static PyObject *tables_live(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    LiveTables *T = (LiveTables *)self;
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "live takes one argument: the cards");
        return NULL;
    }
    PyObject *seq = tuple_of_items(args[0], "cards must be a sequence");
    if (seq == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n >= BYTE_LIMIT) {
        Py_DECREF(seq);
        return PyObject_CallOneArg(T->pure_live, args[0]);
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    int codes[BYTE_LIMIT];
    Live L;
    PyObject *result = NULL;
    if (read_codes(T, items, n, codes) < 0 || live_of(T, codes, n, &L) < 0) goto done;
    if (!L.any) {
        result = PyTuple_New(0);
        goto done;
    }
    Py_ssize_t order[BYTE_LIMIT];  /* the live cards' indices, by position (insertion sort: few cards) */
    Py_ssize_t m = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!is_live(T, &L, codes[i])) continue;
        int32_t p = T->position[codes[i]];
        Py_ssize_t j = m++;
        while (j > 0 && T->position[codes[order[j - 1]]] > p) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    result = PyTuple_New(m);
    if (result == NULL) goto done;
    for (Py_ssize_t j = 0; j < m; j++) PyTuple_SET_ITEM(result, j, Py_NewRef(items[order[j]]));
done:
    Py_DECREF(seq);
    return result;
}

/* SuitCanon.key of codes[0 .. n-1] (the live ones only, given L): per suit the sum of 4-bit rank counts, the
 * suits' sums sorted, then the Jokers; n < shape_limit <= 16, so no count reaches 16. */
static PyObject *shape_tuple(const LiveTables *T, const int *codes, Py_ssize_t n, const Live *L) {
    uint64_t acc[MAX_SUITS] = {0};
    long jokers = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int c = codes[i];
        if (L != NULL && !is_live(T, L, c)) continue;
        if (T->rank[c] < 0) jokers++;
        else acc[T->suit[c]] += (uint64_t)1 << (4 * T->rank[c]);
    }
    const int n_suits = T->n_suits;
    for (int i = 1; i < n_suits; i++) {
        uint64_t x = acc[i];
        int j = i;
        while (j > 0 && acc[j - 1] > x) {
            acc[j] = acc[j - 1];
            j--;
        }
        acc[j] = x;
    }
    PyObject *result = PyTuple_New(n_suits + 1);
    if (result == NULL) return NULL;
    for (int i = 0; i <= n_suits; i++) {
        PyObject *v = i < n_suits ? PyLong_FromUnsignedLongLong(acc[i]) : PyLong_FromLong(jokers);
        if (v == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, i, v);
    }
    return result;
}

/* key(cards) -> SuitCanon.key(cards) (every card, live or not), or None for shape_limit cards or more. */
static PyObject *tables_key(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    LiveTables *T = (LiveTables *)self;
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "key takes one argument: the cards");
        return NULL;
    }
    PyObject *seq = tuple_of_items(args[0], "cards must be a sequence");
    if (seq == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *result = NULL;
    if (n >= T->shape_limit) {
        result = Py_NewRef(Py_None);
    } else {
        int codes[MAX_RANKS];  /* shape_limit <= 16 */
        if (read_codes(T, PySequence_Fast_ITEMS(seq), n, codes) == 0) result = shape_tuple(T, codes, n, NULL);
    }
    Py_DECREF(seq);
    return result;
}

static PyObject *tables_live_shape(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    LiveTables *T = (LiveTables *)self;
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "live_shape takes one argument: the cards");
        return NULL;
    }
    PyObject *seq = tuple_of_items(args[0], "cards must be a sequence");
    if (seq == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n >= T->shape_limit) {
        Py_DECREF(seq);
        Py_RETURN_NONE;
    }
    int codes[MAX_RANKS];  /* shape_limit <= 16 */
    Live L;
    PyObject *result = NULL;
    if (read_codes(T, PySequence_Fast_ITEMS(seq), n, codes) < 0 || live_of(T, codes, n, &L) < 0) goto done;
    if (!L.any) {
        result = PyTuple_New(0);
        goto done;
    }
    result = shape_tuple(T, codes, n, &L);
done:
    Py_DECREF(seq);
    return result;
}

/* parts (disjoint cell masks): g joined with every part it meets, appended last (as the Python). */
/* scored_shape(cards, values) -> (live_shape(cards), the sum of values[c] over every card c of cards):
 * what a best score reads of a hand in one pass (its twin: loba_dsl.solver.scores.pure_scored_shape).
 * values is a tuple of ints, one per card code; a sum past a long long is added up as Python ints. */
static PyObject *tables_scored_shape(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    LiveTables *T = (LiveTables *)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "scored_shape takes two arguments: the cards and the values by card code");
        return NULL;
    }
    PyObject *values = args[1];
    if (!PyTuple_Check(values) || PyTuple_GET_SIZE(values) < T->n_codes) {
        PyErr_SetString(PyExc_TypeError, "values must be a tuple of one int per card code");
        return NULL;
    }
    PyObject *seq = tuple_of_items(args[0], "cards must be a sequence");
    if (seq == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    PyObject *key = NULL, *total = NULL, *result = NULL;
    int small[MAX_RANKS];  /* a key is made of fewer than shape_limit <= 16 cards */
    int *codes = n <= MAX_RANKS ? small : PyMem_Malloc(sizeof(int) * (size_t)n);
    if (codes == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_codes(T, items, n, codes) < 0) goto done;  /* each card read once */
    long long sum = 0;
    int wide = 0;          /* the sum left a long long: added up again as Python ints */
    for (Py_ssize_t i = 0; i < n && !wide; i++) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(PyTuple_GET_ITEM(values, codes[i]), &overflow);
        if (v == -1 && PyErr_Occurred()) goto done;
        if (overflow || __builtin_add_overflow(sum, v, &sum)) wide = 1;
    }
    if (wide) {
        total = PyLong_FromLong(0);
        for (Py_ssize_t i = 0; total != NULL && i < n; i++)
            Py_SETREF(total, PyNumber_Add(total, PyTuple_GET_ITEM(values, codes[i])));
    } else {
        total = PyLong_FromLongLong(sum);
    }
    if (total == NULL) goto done;
    if (n >= T->shape_limit) {
        key = Py_NewRef(Py_None);
    } else {
        Live L;
        if (live_of(T, codes, n, &L) < 0) goto done;
        key = L.any ? shape_tuple(T, codes, n, &L) : PyTuple_New(0);
        if (key == NULL) goto done;
    }
    result = PyTuple_Pack(2, key, total);
done:
    if (codes != small) PyMem_Free(codes);
    Py_XDECREF(key);
    Py_XDECREF(total);
    Py_DECREF(seq);
    return result;
}

static void add_group(u128 *parts, int *n_parts, u128 g) {
    int k = 0;
    for (int i = 0; i < *n_parts; i++) {
        if (parts[i] & g) g |= parts[i];
        else parts[k++] = parts[i];
    }
    parts[k++] = g;
    *n_parts = k;
}

static PyObject *pair(PyObject *parts, long jokers) {
    if (parts == NULL) return NULL;
    PyObject *j = PyLong_FromLong(jokers);
    if (j == NULL) {
        Py_DECREF(parts);
        return NULL;
    }
    PyObject *out = PyTuple_Pack(2, parts, j);
    Py_DECREF(parts);
    Py_DECREF(j);
    return out;
}

#define CELL(su, r) ((u128)1 << (MAX_RANKS * (su) + (r)))

static PyObject *tables_split(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    LiveTables *T = (LiveTables *)self;
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "split takes one argument: the live cards");
        return NULL;
    }
    PyObject *live = args[0];
    PyObject *seq = tuple_of_items(live, "live must be a sequence");
    if (seq == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    PyObject *result = NULL;
    int small_codes[SMALL_HAND];
    Py_ssize_t small_nat[SMALL_HAND], small_bucket[SMALL_HAND];
    int *codes = small_codes;
    Py_ssize_t *nat = small_nat, *bucket = small_bucket;
    if (n == 0) {
        result = pair(PyTuple_New(0), 0);
        goto done;
    }
    if (n > SMALL_HAND) {
        codes = (int *)malloc((size_t)n * sizeof(int));
        nat = (Py_ssize_t *)malloc((size_t)n * sizeof(Py_ssize_t));
        bucket = (Py_ssize_t *)malloc((size_t)n * sizeof(Py_ssize_t));
        if (codes == NULL || nat == NULL || bucket == NULL) {
            PyErr_NoMemory();
            goto done;
        }
    }
    if (read_codes(T, items, n, codes) < 0) goto done;
    uint32_t present[MAX_SUITS] = {0};
    long jokers = 0;
    Py_ssize_t n_nat = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int c = codes[i];
        if (T->flags[c] & WILD) {
            if (T->suit[c] >= 0) {  /* a wild that may stand as itself: one part, no Joker shared */
                result = pair(PyTuple_Pack(1, live), 0);
                goto done;
            }
            jokers++;
            continue;
        }
        present[T->suit[c]] |= 1u << T->rank[c];
        nat[n_nat++] = i;
    }
    if (!n_nat || jokers >= T->least_size) {
        result = pair(PyTuple_Pack(1, live), 0);
        goto done;
    }
    const int n_suits = T->n_suits, n_ranks = T->n_ranks;
    u128 parts[MAX_RANKS * MAX_SUITS];
    int n_parts = 0;
    for (int k = 0; k < T->n_runs; k++) {
        RunShape *R = &T->runs[k];
        long long budget = jokers < R->limit ? jokers : R->limit;
        for (int su = 0; su < n_suits; su++) {
            if (!present[su]) continue;
            Lookup *e = run_lookup(T, R, present[su], budget);
            if (e == NULL) goto done;
            for (int g = 0; g < e->n; g++)
                add_group(parts, &n_parts, (u128)T->pool[e->offset + (uint32_t)g] << (MAX_RANKS * su));
        }
    }
    if (T->n_sets) {
        long count[MAX_RANKS] = {0};
        uint32_t suits[MAX_RANKS] = {0};
        u128 cells[MAX_RANKS] = {0};
        for (Py_ssize_t i = 0; i < n_nat; i++) {
            int c = codes[nat[i]];
            if (!(T->flags[c] & SET_NATURAL)) continue;
            int r = T->rank[c], su = T->suit[c];
            count[r]++;
            suits[r] |= 1u << su;
            cells[r] |= CELL(su, r);
        }
        for (int k = 0; k < T->n_sets; k++) {
            const SetShape *S = &T->sets[k];
            long long need = S->lo - (jokers < S->limit ? jokers : S->limit);
            for (int r = 0; r < n_ranks; r++) {
                if (!count[r]) continue;
                long long have = S->distinct ? __builtin_popcount(suits[r]) : count[r];
                if (have >= need) add_group(parts, &n_parts, cells[r]);
            }
        }
    }
    if (n_parts == 1) {
        if (!jokers) {
            result = pair(PyTuple_Pack(1, live), 0);
            goto done;
        }
        PyObject *naturals = PyTuple_New(n_nat);
        if (naturals == NULL) goto done;
        for (Py_ssize_t i = 0; i < n_nat; i++) PyTuple_SET_ITEM(naturals, i, Py_NewRef(items[nat[i]]));
        PyObject *one = PyTuple_Pack(1, naturals);
        Py_DECREF(naturals);
        result = pair(one, jokers);
        goto done;
    }
    /* The naturals by part, parts in the order their first natural comes (a natural in no part: its cell). */
    u128 small_keys[SMALL_HAND];
    Py_ssize_t small_sizes[SMALL_HAND];
    u128 *keys = small_keys;
    Py_ssize_t *sizes = small_sizes;
    if (n_nat > SMALL_HAND) {
        keys = (u128 *)malloc((size_t)n_nat * sizeof(u128));
        sizes = (Py_ssize_t *)malloc((size_t)n_nat * sizeof(Py_ssize_t));
        if (keys == NULL || sizes == NULL) {
            PyErr_NoMemory();
            goto free_keys;
        }
    }
    Py_ssize_t n_buckets = 0;
    for (Py_ssize_t i = 0; i < n_nat; i++) {
        int c = codes[nat[i]];
        u128 bit = CELL(T->suit[c], T->rank[c]);
        u128 key = bit;
        for (int p = 0; p < n_parts; p++) {
            if (parts[p] & bit) {
                key = parts[p];
                break;
            }
        }
        Py_ssize_t b;
        for (b = 0; b < n_buckets && keys[b] != key; b++) {}
        if (b == n_buckets) {
            keys[n_buckets] = key;
            sizes[n_buckets++] = 0;
        }
        sizes[b]++;
        bucket[i] = b;
    }
    PyObject *out = PyTuple_New(n_buckets);
    if (out == NULL) goto free_keys;
    for (Py_ssize_t b = 0; b < n_buckets; b++) {
        PyObject *t = PyTuple_New(sizes[b]);
        if (t == NULL) {
            Py_DECREF(out);
            goto free_keys;
        }
        PyTuple_SET_ITEM(out, b, t);
        sizes[b] = 0;
    }
    for (Py_ssize_t i = 0; i < n_nat; i++) {
        PyObject *t = PyTuple_GET_ITEM(out, bucket[i]);
        PyTuple_SET_ITEM(t, sizes[bucket[i]]++, Py_NewRef(items[nat[i]]));
    }
    result = pair(out, jokers);
free_keys:
    if (keys != small_keys) free(keys);
    if (sizes != small_sizes) free(sizes);
done:
    if (codes != small_codes) free(codes);
    if (nat != small_nat) free(nat);
    if (bucket != small_bucket) free(bucket);
    Py_DECREF(seq);
    return result;
}

/* ------------------------------------------------------------------ the type */

static void tables_free_arrays(LiveTables *T) {
    free(T->rank);
    free(T->suit);
    free(T->flags);
    free(T->position);
    free(T->sets);
    if (T->runs != NULL) {
        for (int k = 0; k < T->n_runs; k++) {
            RunShape *R = &T->runs[k];
            free(R->size);
            free(R->mask);
            if (R->cache != NULL) {
                for (int b = 0; b <= R->cap; b++) free(R->cache[b]);
                free(R->cache);
            }
        }
        free(T->runs);
    }
    free(T->pool);
    T->rank = T->suit = NULL;
    T->flags = NULL;
    T->position = NULL;
    T->sets = NULL;
    T->runs = NULL;
    T->pool = NULL;
}

static int tables_traverse(PyObject *self, visitproc visit, void *arg) {
    Py_VISIT(((LiveTables *)self)->pure_live);
    return 0;
}

static int tables_clear(PyObject *self) {
    Py_CLEAR(((LiveTables *)self)->pure_live);
    return 0;
}

static void tables_dealloc(PyObject *self) {
    PyObject_GC_UnTrack(self);
    tables_clear(self);
    tables_free_arrays((LiveTables *)self);
    PyObject_GC_Del(self);
}

static PyObject *tables_lookups(PyObject *self, PyObject *Py_UNUSED(ignored)) {
    LiveTables *T = (LiveTables *)self;
    long n = 0;
    for (int k = 0; k < T->n_runs; k++) {
        RunShape *R = &T->runs[k];
        for (int b = 0; b <= R->cap; b++) {
            if (R->cache[b] == NULL) continue;
            for (size_t m = 0; m < ((size_t)1 << T->n_ranks); m++) n += R->cache[b][m].filled;
        }
    }
    return PyLong_FromLong(n);
}

static PyMethodDef tables_methods[] = {
    {"live", (PyCFunction)(void (*)(void))tables_live, METH_FASTCALL,
     "live(cards) -> the live cards in the processing order (CandidateGenerator.live)"},
    {"live_shape", (PyCFunction)(void (*)(void))tables_live_shape, METH_FASTCALL,
     "live_shape(cards) -> SuitCanon.key of the live cards, () or None (CandidateGenerator.live_shape)"},
    {"split", (PyCFunction)(void (*)(void))tables_split, METH_FASTCALL,
     "split(live) -> (parts, jokers) (CandidateGenerator.split)"},
    {"scored_shape", (PyCFunction)(void (*)(void))tables_scored_shape, METH_FASTCALL,
     "scored_shape(cards, values, /) -> (live_shape(cards), sum of values[c] over the cards)"},
    {"key", (PyCFunction)(void (*)(void))tables_key, METH_FASTCALL,
     "key(cards, /) -> SuitCanon.key(cards), or None for shape_limit cards or more"},
    {"lookups", (PyCFunction)tables_lookups, METH_NOARGS, "lookups() -> how many run lookups are cached"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "loba_dsl.solver.native_live.LiveTables",
    .tp_doc = "The live-card tables of one CandidateGenerator: live, live_shape and split in C.",
    .tp_basicsize = sizeof(LiveTables),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_dealloc = tables_dealloc,
    .tp_traverse = tables_traverse,
    .tp_clear = tables_clear,
    .tp_methods = tables_methods,
};

/* ------------------------------------------------------------------ the factory */

/* An int item of a tuple; 0 ok, 1 out of range (give None), -1 a Python error. */
static int item_ll(PyObject *t, Py_ssize_t i, long long lo, long long hi, long long *out) {
    PyObject *o = PyTuple_GET_ITEM(t, i);
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "the tables' entries must be int or bool");
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < lo || v > hi) return 1;
    *out = v;
    return 0;
}

/* A tuple of `size` items; NULL with a TypeError otherwise (borrowed). */
static PyObject *tuple_of(PyObject *o, Py_ssize_t size, const char *what) {
    if (!PyTuple_Check(o) || (size >= 0 && PyTuple_GET_SIZE(o) != size)) {
        PyErr_Format(PyExc_TypeError, "%s must be a tuple%s", what, size >= 0 ? " of the documented size" : "");
        return NULL;
    }
    return o;
}

#define READ(t, i, lo, hi, dst)                                   \
    do {                                                          \
        long long v_;                                             \
        int r_ = item_ll((t), (i), (lo), (hi), &v_);              \
        if (r_ < 0) goto done;                                    \
        if (r_ > 0) { result = Py_NewRef(Py_None); goto done; }   \
        (dst) = v_;                                               \
    } while (0)

/* live_tables(n_ranks, n_suits, cards, set_shapes, run_shapes, least_size, shape_limit, pure_live, /)
 *   cards: per code (rank, suit, set_natural, wild_capable, position), rank and suit -1 for the Joker;
 *   set_shapes: (lo, distinct, wild limit) each; run_shapes: (lo, wild limit, low, windows) each, windows
 *   ((size, ranks mask), ...) smallest first;  pure_live: the Python live, for 128 cards or more.
 * -> LiveTables, or None where the deck or a shape is beyond the limits above. */
static PyObject *live_tables(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "live_tables takes 8 arguments");
        return NULL;
    }
    int overflow = 0;
    long n_ranks = PyLong_AsLongAndOverflow(args[0], &overflow);
    if (n_ranks == -1 && PyErr_Occurred()) return NULL;
    if (overflow || n_ranks < 1 || n_ranks > MAX_RANKS) Py_RETURN_NONE;
    long n_suits = PyLong_AsLongAndOverflow(args[1], &overflow);
    if (n_suits == -1 && PyErr_Occurred()) return NULL;
    if (overflow || n_suits < 1 || n_suits > MAX_SUITS) Py_RETURN_NONE;
    PyObject *cards = tuple_of(args[2], -1, "cards");
    PyObject *sets = tuple_of(args[3], -1, "set_shapes");
    PyObject *runs = tuple_of(args[4], -1, "run_shapes");
    if (cards == NULL || sets == NULL || runs == NULL) return NULL;
    long least = PyLong_AsLongAndOverflow(args[5], &overflow);
    if (least == -1 && PyErr_Occurred()) return NULL;
    if (overflow) Py_RETURN_NONE;
    long shape_limit = PyLong_AsLongAndOverflow(args[6], &overflow);
    if (shape_limit == -1 && PyErr_Occurred()) return NULL;
    if (overflow || shape_limit < 0 || shape_limit > MAX_RANKS) Py_RETURN_NONE;
    if (!PyCallable_Check(args[7])) {
        PyErr_SetString(PyExc_TypeError, "pure_live must be callable");
        return NULL;
    }
    LiveTables *T = PyObject_GC_New(LiveTables, &TablesType);
    if (T == NULL) return NULL;
    T->rank = T->suit = NULL;
    T->flags = NULL;
    T->position = NULL;
    T->sets = NULL;
    T->runs = NULL;
    T->pool = NULL;
    T->pool_used = T->pool_cap = 0;
    T->row_bytes = 0;
    T->n_sets = T->n_runs = 0;
    T->pure_live = Py_NewRef(args[7]);
    T->n_ranks = (int)n_ranks;
    T->n_suits = (int)n_suits;
    T->least_size = (int)(least < 0 ? 0 : least > 1L << 30 ? 1L << 30 : least);
    T->shape_limit = (int)shape_limit;
    PyObject_GC_Track((PyObject *)T);
    PyObject *result = NULL;
    Py_ssize_t n_codes = PyTuple_GET_SIZE(cards);
    T->n_codes = (int)n_codes;
    if (n_codes != n_ranks * n_suits + 1) {
        PyErr_SetString(PyExc_ValueError, "cards must hold one entry per card code (n_ranks * n_suits + 1)");
        goto done;
    }
    T->rank = (int8_t *)malloc((size_t)n_codes);
    T->suit = (int8_t *)malloc((size_t)n_codes);
    T->flags = (uint8_t *)malloc((size_t)n_codes);
    T->position = (int32_t *)malloc((size_t)n_codes * sizeof(int32_t));
    T->n_sets = (int)PyTuple_GET_SIZE(sets);
    T->sets = (SetShape *)calloc((size_t)T->n_sets + 1, sizeof(SetShape));
    T->runs = (RunShape *)calloc((size_t)PyTuple_GET_SIZE(runs) + 1, sizeof(RunShape));
    if (!T->rank || !T->suit || !T->flags || !T->position || !T->sets || !T->runs) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t c = 0; c < n_codes; c++) {
        PyObject *t = tuple_of(PyTuple_GET_ITEM(cards, c), 5, "a card's entry");
        if (t == NULL) goto done;
        long long rank, suit, set_natural, wild, position;
        int joker = c == n_codes - 1;
        READ(t, 0, joker ? -1 : 0, joker ? -1 : n_ranks - 1, rank);
        READ(t, 1, joker ? -1 : 0, joker ? -1 : n_suits - 1, suit);
        READ(t, 2, 0, joker ? 0 : 1, set_natural);
        READ(t, 3, joker ? 1 : 0, 1, wild);  /* the Joker is always wild */
        READ(t, 4, 0, n_codes - 1, position);
        T->rank[c] = (int8_t)rank;
        T->suit[c] = (int8_t)suit;
        T->flags[c] = (uint8_t)((set_natural ? SET_NATURAL : 0) | (wild ? WILD : 0));
        T->position[c] = (int32_t)position;
    }
    for (int k = 0; k < T->n_sets; k++) {
        PyObject *t = tuple_of(PyTuple_GET_ITEM(sets, k), 3, "a set shape");
        if (t == NULL) goto done;
        long long lo, distinct, limit;
        READ(t, 0, LLONG_MIN / 4, SET_LO_LIMIT, lo);
        READ(t, 1, 0, 1, distinct);
        READ(t, 2, 0, LLONG_MAX / 4, limit);
        T->sets[k].lo = (int)(lo < -(1LL << 30) ? -(1LL << 30) : lo);
        T->sets[k].distinct = (int)distinct;
        T->sets[k].limit = limit;
    }
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(runs); k++) {
        PyObject *t = tuple_of(PyTuple_GET_ITEM(runs, k), 4, "a run shape");
        if (t == NULL) goto done;
        RunShape *R = &T->runs[k];
        T->n_runs = (int)k + 1;
        long long lo, limit, low;
        READ(t, 0, 0, LLONG_MAX / 4, lo);
        READ(t, 1, 0, LLONG_MAX / 4, limit);
        READ(t, 2, 0, 1, low);
        if (low && lo > n_ranks) {  /* the windows held whole only where lo <= n_ranks (_low_runs) */
            result = Py_NewRef(Py_None);
            goto done;
        }
        R->lo = (int)(lo > 64 ? 64 : lo);
        R->limit = limit;
        R->low = (int)low;
        PyObject *windows = tuple_of(PyTuple_GET_ITEM(t, 3), -1, "a run shape's windows");
        if (windows == NULL) goto done;
        R->n_windows = (int)PyTuple_GET_SIZE(windows);
        R->size = (int *)malloc(((size_t)R->n_windows + 1) * sizeof(int));
        R->mask = (uint32_t *)malloc(((size_t)R->n_windows + 1) * sizeof(uint32_t));
        if (R->size == NULL || R->mask == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        R->cap = 0;
        for (int w = 0; w < R->n_windows; w++) {
            PyObject *win = tuple_of(PyTuple_GET_ITEM(windows, w), 2, "a window");
            if (win == NULL) goto done;
            long long size, mask;
            READ(win, 0, 0, 64, size);
            READ(win, 1, 0, (1LL << n_ranks) - 1, mask);
            R->size[w] = (int)size;
            R->mask[w] = (uint32_t)mask;
            if (size > R->cap) R->cap = (int)size;
        }
        R->cache = (Lookup **)calloc((size_t)R->cap + 1, sizeof(Lookup *));
        if (R->cache == NULL) {
            PyErr_NoMemory();
            goto done;
        }
    }
    result = Py_NewRef((PyObject *)T);
done:
    Py_DECREF(T);
    return result;
}

/* ------------------------------------------------------------------ the module */

static PyMethodDef methods[] = {
    {"live_tables", (PyCFunction)(void (*)(void))live_tables, METH_FASTCALL,
     "live_tables(n_ranks, n_suits, cards, set_shapes, run_shapes, least_size, shape_limit, pure_live, /)"
     " -> LiveTables or None"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "loba_dsl.solver.native_live",
    .m_doc = "CandidateGenerator's live cards in C (its Python methods live, live_shape, split are the twin).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit_native_live(void) {
    if (PyType_Ready(&TablesType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "LiveTables", (PyObject *)&TablesType) < 0 ||
        PyModule_AddIntConstant(m, "MAX_RANKS", MAX_RANKS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_SUITS", MAX_SUITS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
