/* The candidate melds of a hand in C: the same list as CandidateGenerator.pure_hand_candidates
 * (loba_dsl/solver/candidates.py).
 *
 * A CandidateTables is built once per CandidateGenerator from its plain data: the processing order,
 * each code's rank, suit and roles, the codes by suit and rank, the Joker's code, and per compiled
 * shape (run?, least size, most size, suits distinct?, no wilds?, most wilds, run windows smallest
 * first).  Its `candidates(hand, pooled)` generates every candidate as the Python does (sets by rank:
 * every choice of the held copies with as many wilds as make an allowed size; runs by window: the
 * held ranks with the gaps filled by wilds and any held natural but one given up to a wild; melds of
 * wild-capable cards alone), with the wilds named from the hand's pool (less the copies the meld
 * already holds as naturals) or, `pooled`, as Jokers while the hand has that many wilds.
 *
 * Each candidate is kept as a record of `width` bytes (the hand's size, plus the most ranks a run window
 * repeats: the ace, where it is the top rank and may be high, as the Python's windows hold it): the processing positions of
 * its cards plus one, ascending, then zeros.  Comparing records byte by byte is then exactly Python's
 * comparison of the lists of positions (a shorter prefix first), so one sort and dropping equal
 * neighbours gives the Python's set, sorted by the order keys.  No skeleton table is kept across
 * calls (they are cheap to redo here), so memory is one call's records.
 *
 * Its `light_gain(...)` is a whole light search of a hand in one call: these candidates, their gains
 * read from a table (or asked of the solver), and the search (native_packing.plain_search_melds).
 *
 * Limits (the caller checks them and keeps the Python generator beyond them): at most MAX_CODES card
 * codes (a position plus one fits a byte), MAX_RANKS ranks (a suit's ranks fit a 32-bit mask),
 * MAX_SUITS suits.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CODES 255
#define MAX_RANKS 31
#define MAX_SUITS 64
#define SIZE_CAP (1L << 30)   /* a shape's most size above this (no limit) is taken as this */

typedef struct {
    int run, lo, distinct, no_wilds, wild_limit;
    long hi;
    int n_windows;
    int *win_start;  /* window w's ranks: win_ranks[win_start[w] .. win_start[w + 1] - 1], in window order */
    int *win_ranks;
    uint32_t *win_mask;
} Shape;

typedef struct {
    PyObject_HEAD
    int n_codes, n_ranks, n_suits, joker;
    int code_at[MAX_CODES];      /* position -> code */
    int position[MAX_CODES];     /* code -> position */
    int rank[MAX_CODES], suit[MAX_CODES];
    uint8_t wild_capable[MAX_CODES], set_natural[MAX_CODES];
    int *suit_codes;             /* [suit * n_ranks + rank] -> code */
    int n_shapes;
    Shape *shapes;
    int min_lo;
    long max_hi;
    int max_repeats;             /* the most ranks a window holds twice (the ace, where it is the top rank and high) */
    PyObject *code_obj[MAX_CODES];  /* code -> its int (owned) */
} Tables;

/* ------------------------------------------------------------------ one call's state */

typedef struct {
    const Tables *T;
    int pooled;
    int counts[MAX_CODES];
    int n_pool;
    int pool_code[MAX_CODES];    /* the wild-capable codes held, in the processing order */
    int pool_n[MAX_CODES];
    int avail[MAX_CODES];        /* per pool entry: copies not already in the meld as naturals */
    long avail_after[MAX_CODES + 1];  /* copies available from pool entry i on */
    int wilds_in_hand;
    int *cur;                    /* the candidate being built (codes); room for the hand's size */
    Py_ssize_t width;            /* bytes per record */
    uint8_t *arena;
    size_t n, cap;
} Gen;

static int emit(Gen *G, int len) {
    if (len > G->width) {  /* never: a candidate is at most the hand's cards and a window's repeated ranks */
        PyErr_SetString(PyExc_SystemError, "a candidate larger than its hand");
        return -1;
    }
    if (G->n == G->cap) {
        size_t cap = G->cap ? G->cap * 2 : 256;
        uint8_t *bigger = (uint8_t *)realloc(G->arena, cap * (size_t)G->width);
        if (bigger == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        G->arena = bigger;
        G->cap = cap;
    }
    uint8_t *rec = G->arena + G->n * (size_t)G->width;
    const int *position = G->T->position;
    for (int i = 0; i < len; i++) {  /* insertion sort: a candidate is a few cards */
        uint8_t p = (uint8_t)(position[G->cur[i]] + 1);
        int j = i;
        while (j > 0 && rec[j - 1] > p) {
            rec[j] = rec[j - 1];
            j--;
        }
        rec[j] = p;
    }
    if (len < G->width) memset(rec + len, 0, (size_t)(G->width - len));
    G->n++;
    return 0;
}

/* Every multiset of `room` wilds from pool entries i on (their avail copies) after cur[0 .. len - 1]. */
static int add_wilds(Gen *G, int i, int room, int len) {
    if (room == 0) return emit(G, len);
    if (G->avail_after[i] < room) return 0;
    int take = G->avail[i] < room ? G->avail[i] : room;
    for (int t = 0; t < take; t++) G->cur[len + t] = G->pool_code[i];
    for (; take >= 0; take--) {
        if (add_wilds(G, i + 1, room - take, len + take) < 0) return -1;
    }
    return 0;
}

/* The candidates of the naturals cur[0 .. len - 1] with `w` wilds added (wilds_for in the Python). */
static int with_wilds(Gen *G, int len, int w) {
    if (w == 0) return emit(G, len);
    const Tables *T = G->T;
    if (G->pooled) {
        int own = 0;
        for (int i = 0; i < len; i++) own += T->wild_capable[G->cur[i]] && T->rank[G->cur[i]] >= 0;
        if (w + own > G->wilds_in_hand) return 0;
        for (int i = 0; i < w; i++) G->cur[len + i] = T->joker;
        return emit(G, len + w);
    }
    for (int i = 0; i < G->n_pool; i++) {
        int n = G->pool_n[i];
        for (int j = 0; j < len; j++) n -= G->cur[j] == G->pool_code[i];
        G->avail[i] = n > 0 ? n : 0;  /* a window's repeated rank may name a card more often than held */
    }
    G->avail_after[G->n_pool] = 0;
    for (int i = G->n_pool - 1; i >= 0; i--) G->avail_after[i] = G->avail_after[i + 1] + G->avail[i];
    return add_wilds(G, 0, w, len);
}

/* ------------------------------------------------------------------ sets */

typedef struct {
    const Shape *k;
    int budget;
    int n_held;
    int held_code[MAX_SUITS];
    int held_n[MAX_SUITS];
} SetRank;

static int set_choices(Gen *G, const SetRank *S, int i, long room, int len) {
    if (i == S->n_held) {
        if (len == 0) return 0;
        long most = S->k->hi - len;
        if (most > S->budget) most = S->budget;
        for (int w = 0; w <= most; w++) {
            if (len + w >= S->k->lo && with_wilds(G, len, w) < 0) return -1;
        }
        return 0;
    }
    long take = S->k->distinct ? 1 : S->held_n[i];
    if (take > S->held_n[i]) take = S->held_n[i];
    if (take > room) take = room;
    for (int t = 0; t <= take; t++) {
        for (int u = 0; u < t; u++) G->cur[len + u] = S->held_code[i];
        if (set_choices(G, S, i + 1, room - t, len + t) < 0) return -1;
    }
    return 0;
}

static int sets(Gen *G, const Shape *k) {
    const Tables *T = G->T;
    SetRank S;
    S.k = k;
    S.budget = k->no_wilds ? 0 : (k->wild_limit < G->wilds_in_hand ? k->wild_limit : G->wilds_in_hand);
    for (int r = 0; r < T->n_ranks; r++) {
        S.n_held = 0;
        long total = 0;
        for (int s = 0; s < T->n_suits; s++) {
            int c = T->suit_codes[s * T->n_ranks + r];
            if (T->set_natural[c] && G->counts[c] > 0) {
                S.held_code[S.n_held] = c;
                S.held_n[S.n_held++] = G->counts[c];
                total += G->counts[c];
            }
        }
        if (S.n_held == 0 || total + S.budget < k->lo) continue;
        if (set_choices(G, &S, 0, k->hi, 0) < 0) return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ runs */

typedef struct {
    const int *codes;  /* the suit's codes by rank */
    int n_options;
    int options[MAX_RANKS];  /* the window's held ranks, in window order (a rank held twice: twice) */
    int have;                /* distinct ranks held: only the first `have` options may be given up to a wild */
    int gaps, most_extra;
} RunWindow;

static int run_choices(Gen *G, const RunWindow *W, int i, int extra, int len) {
    if (i == W->n_options) return with_wilds(G, len, W->gaps + extra);
    G->cur[len] = W->codes[W->options[i]];
    if (run_choices(G, W, i + 1, extra, len + 1) < 0) return -1;
    if (extra < W->most_extra && i < W->have && run_choices(G, W, i + 1, extra + 1, len) < 0) return -1;
    return 0;
}

static int runs(Gen *G, const Shape *k, const uint32_t *present) {
    const Tables *T = G->T;
    int budget = k->no_wilds ? 0 : (k->wild_limit < G->wilds_in_hand ? k->wild_limit : G->wilds_in_hand);
    RunWindow W;
    for (int s = 0; s < T->n_suits; s++) {
        uint32_t held = present[s];
        if (!held) continue;
        int n_present = __builtin_popcount(held);
        if (n_present + budget < k->lo) continue;
        W.codes = T->suit_codes + s * T->n_ranks;
        for (int w = 0; w < k->n_windows; w++) {
            int size = k->win_start[w + 1] - k->win_start[w];
            if (size > n_present + budget) break;  /* windows come smallest first */
            int have = __builtin_popcount(k->win_mask[w] & held);
            int gaps = size - have;
            if (gaps > budget || !have) continue;
            W.n_options = 0;
            for (int j = k->win_start[w]; j < k->win_start[w + 1]; j++) {
                int r = k->win_ranks[j];
                if (held >> r & 1) W.options[W.n_options++] = r;
            }
            W.have = have;
            W.gaps = gaps;
            W.most_extra = budget - gaps < have - 1 ? budget - gaps : have - 1;
            if (run_choices(G, &W, 0, 0, 0) < 0) return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ melds of wild-capable cards alone */

static int wild_only(Gen *G, int i, long room, int len) {
    if (i == G->n_pool) return len >= G->T->min_lo ? emit(G, len) : 0;
    long take = G->pool_n[i] < room ? G->pool_n[i] : room;
    for (int t = 0; t <= take; t++) {
        if (t > 0) G->cur[len + t - 1] = G->pool_code[i];
        if (wild_only(G, i + 1, room - t, len + t) < 0) return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ sorting the records */

static void merge_sort(uint32_t *ix, uint32_t *tmp, size_t n, const uint8_t *arena, size_t width) {
    if (n < 2) return;
    if (n <= 8) {
        for (size_t i = 1; i < n; i++) {
            uint32_t x = ix[i];
            size_t j = i;
            while (j > 0 && memcmp(arena + (size_t)ix[j - 1] * width, arena + (size_t)x * width, width) > 0) {
                ix[j] = ix[j - 1];
                j--;
            }
            ix[j] = x;
        }
        return;
    }
    size_t half = n / 2;
    merge_sort(ix, tmp, half, arena, width);
    merge_sort(ix + half, tmp, n - half, arena, width);
    size_t a = 0, b = half, o = 0;
    while (a < half && b < n) {
        if (memcmp(arena + (size_t)ix[b] * width, arena + (size_t)ix[a] * width, width) < 0) tmp[o++] = ix[b++];
        else tmp[o++] = ix[a++];
    }
    while (a < half) tmp[o++] = ix[a++];
    while (b < n) tmp[o++] = ix[b++];
    memcpy(ix, tmp, n * sizeof(uint32_t));
}

/* ------------------------------------------------------------------ candidates(hand, pooled, /) */

/* A tuple of `o`'s items (a new reference; `o` itself if a tuple), else NULL with a TypeError saying `message`:
 * read from a copy, since an item's __index__ (or __bool__) may run Python code that empties a list. */
static PyObject *tuple_of_items(PyObject *o, const char *message) {
    PyObject *t = PySequence_Tuple(o);
    if (t == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) PyErr_SetString(PyExc_TypeError, message);
    return t;
}

static PyObject *tables_candidates(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    const Tables *T = (const Tables *)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "candidates(hand, pooled, /)");
        return NULL;
    }
    int pooled = PyObject_IsTrue(args[1]);
    if (pooled < 0) return NULL;
    PyObject *hand = tuple_of_items(args[0], "hand must be a sequence of card codes");
    if (hand == NULL) return NULL;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(hand);
    PyObject **items = PySequence_Fast_ITEMS(hand);
    PyObject *result = NULL;
    uint32_t *ix = NULL, *tmp = NULL;
    Gen *G = (Gen *)calloc(1, sizeof(Gen));
    if (G == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    G->T = T;
    G->pooled = pooled;
    /* A window that holds a rank twice (the Python's options list it twice) names that card twice. */
    G->width = size > 0 ? size + T->max_repeats : 1;
    G->cur = (int *)malloc((size_t)(G->width + 1) * sizeof(int));
    if (G->cur == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    uint32_t present[MAX_SUITS] = {0};
    for (Py_ssize_t i = 0; i < size; i++) {
        long c = PyLong_AsLong(items[i]);
        if (c == -1 && PyErr_Occurred()) goto done;
        if (c < 0 || c >= T->n_codes) {
            PyErr_SetString(PyExc_ValueError, "a card code out of the deck's range");
            goto done;
        }
        G->counts[c]++;
        if (T->rank[c] >= 0) present[T->suit[c]] |= (uint32_t)1 << T->rank[c];
    }
    for (int p = 0; p < T->n_codes; p++) {
        int c = T->code_at[p];
        if (T->wild_capable[c] && G->counts[c] > 0) {
            G->pool_code[G->n_pool] = c;
            G->pool_n[G->n_pool++] = G->counts[c];
            G->wilds_in_hand += G->counts[c];
        }
    }
    for (int s = 0; s < T->n_shapes; s++) {
        const Shape *k = &T->shapes[s];
        if ((k->run ? runs(G, k, present) : sets(G, k)) < 0) goto done;
    }
    if (G->wilds_in_hand >= T->min_lo && wild_only(G, 0, T->max_hi, 0) < 0) goto done;
    if (G->n > UINT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "too many candidate melds");
        goto done;
    }
    size_t width = (size_t)G->width;
    ix = (uint32_t *)malloc((G->n + 1) * sizeof(uint32_t));
    tmp = (uint32_t *)malloc((G->n + 1) * sizeof(uint32_t));
    if (ix == NULL || tmp == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (size_t i = 0; i < G->n; i++) ix[i] = (uint32_t)i;
    merge_sort(ix, tmp, G->n, G->arena, width);
    result = PyList_New(0);
    if (result == NULL) goto done;
    const uint8_t *last = NULL;
    for (size_t i = 0; i < G->n; i++) {
        const uint8_t *rec = G->arena + (size_t)ix[i] * width;
        if (last != NULL && memcmp(last, rec, width) == 0) continue;
        last = rec;
        Py_ssize_t len = 0;
        while (len < (Py_ssize_t)width && rec[len]) len++;
        PyObject *meld = PyTuple_New(len);
        if (meld == NULL) goto fail;
        for (Py_ssize_t j = 0; j < len; j++) {
            PyTuple_SET_ITEM(meld, j, Py_NewRef(T->code_obj[T->code_at[rec[j] - 1]]));
        }
        int r = PyList_Append(result, meld);
        Py_DECREF(meld);
        if (r < 0) goto fail;
    }
    goto done;
fail:
    Py_CLEAR(result);
done:
    free(ix);
    free(tmp);
    if (G != NULL) {
        free(G->arena);
        free(G->cur);
        free(G);
    }
    Py_DECREF(hand);
    return result;
}

/* ------------------------------------------------------------------ light_gain(hand, ...) */

/* light_gain(hand, table, gain, limit, search, position, joker, pooled, tick, /) -> int | None
 *
 * The light search of a hand without pooled wilds in one call (its Python twin: the rest of
 * Searches._searched_gain's first branch, MeldGains.positive then Searches.plain_search): the hand's
 * candidates (candidates(hand, False)), counted against `tick` in bulk; each one's gain read from
 * `table` (a mapping, a dict in the solver), or where the table has none asked of `gain` (a callable: an int or None); the
 * melds of positive gain in order; then search(hand, those (meld, gain) pairs, position, joker, pooled,
 * tick) (native_packing.plain_search_melds), and its best gain.  None where more than `limit` melds
 * have a positive gain, or where `search` answers None (a key too wide): the caller searches otherwise. */
static PyObject *tables_light_gain(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "light_gain(hand, table, gain, limit, search, position, joker, pooled, tick, /)");
        return NULL;
    }
    PyObject *table = args[1], *gain = args[2], *search = args[4], *ticker = args[8];
    if (!PyMapping_Check(table)) {
        PyErr_SetString(PyExc_TypeError, "table must be a mapping");
        return NULL;
    }
    if (!PyCallable_Check(gain) || !PyCallable_Check(search) || (ticker != Py_None && !PyCallable_Check(ticker))) {
        PyErr_SetString(PyExc_TypeError, "gain and search must be callable, tick callable or None");
        return NULL;
    }
    Py_ssize_t limit = PyLong_AsSsize_t(args[3]);
    if (limit == -1 && PyErr_Occurred()) return NULL;
    PyObject *hand = tuple_of_items(args[0], "hand must be a sequence of card codes");
    if (hand == NULL) return NULL;
    PyObject *call[2] = {hand, Py_False};
    PyObject *melds = tables_candidates(self, call, 2);  /* a new list, no Python code runs in it */
    PyObject *raw = NULL, *found = NULL, *result = NULL;
    if (melds == NULL) goto done;
    Py_ssize_t n = PyList_GET_SIZE(melds);
    if (ticker != Py_None && n > 0) {
        PyObject *r = PyObject_CallFunction(ticker, "n", n);
        if (r == NULL) goto done;
        Py_DECREF(r);
    }
    raw = PyList_New(0);
    if (raw == NULL) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *m = PyList_GET_ITEM(melds, i);  /* `melds` is ours alone: gain cannot change it */
        PyObject *v;
        if (PyDict_CheckExact(table)) {
            v = PyDict_GetItemWithError(table, m);  /* borrowed */
            Py_XINCREF(v);
        } else {
            v = PyObject_GetItem(table, m);
            if (v == NULL && PyErr_ExceptionMatches(PyExc_KeyError)) PyErr_Clear();
        }
        if (v == NULL) {
            if (PyErr_Occurred()) goto done;
            v = PyObject_CallOneArg(gain, m);
            if (v == NULL) goto done;
        }
        int keep = 0;
        if (v != Py_None) {
            PyObject *zero = PyLong_FromLong(0);
            keep = zero == NULL ? -1 : PyObject_RichCompareBool(v, zero, Py_GT);
            Py_XDECREF(zero);
        }
        if (keep > 0) {
            PyObject *pair = PyTuple_Pack(2, m, v);
            if (pair == NULL || PyList_Append(raw, pair) < 0) keep = -1;
            Py_XDECREF(pair);
        }
        Py_DECREF(v);
        if (keep < 0) goto done;
        if (PyList_GET_SIZE(raw) > limit) {
            result = Py_NewRef(Py_None);
            goto done;
        }
    }
    PyObject *search_args[6] = {hand, raw, args[5], args[6], args[7], ticker};
    found = PyObject_Vectorcall(search, search_args, 6, NULL);
    if (found == NULL) goto done;
    if (found == Py_None) {
        result = Py_NewRef(Py_None);
    } else if (PyTuple_Check(found) && PyTuple_GET_SIZE(found) == 2) {
        result = Py_NewRef(PyTuple_GET_ITEM(found, 0));
    } else {
        PyErr_SetString(PyExc_TypeError, "search must answer (best, chosen) or None");
    }
done:
    Py_XDECREF(found);
    Py_XDECREF(raw);
    Py_XDECREF(melds);
    Py_DECREF(hand);
    return result;
}

/* ------------------------------------------------------------------ building the tables */

static void tables_dealloc(PyObject *self) {
    Tables *T = (Tables *)self;
    for (int c = 0; c < T->n_codes; c++) Py_XDECREF(T->code_obj[c]);
    if (T->shapes != NULL) {
        for (int s = 0; s < T->n_shapes; s++) {
            free(T->shapes[s].win_start);
            free(T->shapes[s].win_ranks);
            free(T->shapes[s].win_mask);
        }
        free(T->shapes);
    }
    free(T->suit_codes);
    Py_TYPE(self)->tp_free(self);
}

/* A sequence of `n` ints, each in [lo, hi], into out; -1 with a Python error. */
static int int_row(PyObject *seq, Py_ssize_t n, long lo, long hi, int *out, const char *what) {
    PyObject *row = tuple_of_items(seq, what);
    if (row == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(row) != n) {
        Py_DECREF(row);
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items", what, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(row, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(row);
            return -1;
        }
        if (v < lo || v > hi) {
            Py_DECREF(row);
            PyErr_Format(PyExc_ValueError, "%s: %ld out of range", what, v);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(row);
    return 0;
}

static long clamp_size(PyObject *o) {
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (overflow > 0 || v > SIZE_CAP) return SIZE_CAP;
    if (overflow < 0) return -SIZE_CAP;
    return v;
}

static int read_shape(Tables *T, PyObject *spec, Shape *k) {
    /* (run, lo, hi, distinct, no_wilds, wild_limit, windows) */
    if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) != 7) {
        PyErr_SetString(PyExc_TypeError, "a shape is (run, lo, hi, distinct, no_wilds, wild_limit, windows)");
        return -1;
    }
    int flags[3];
    const int at[3] = {0, 3, 4};
    for (int i = 0; i < 3; i++) {
        flags[i] = PyObject_IsTrue(PyTuple_GET_ITEM(spec, at[i]));
        if (flags[i] < 0) return -1;
    }
    k->run = flags[0];
    k->distinct = flags[1];
    k->no_wilds = flags[2];
    long lo = clamp_size(PyTuple_GET_ITEM(spec, 1));
    long hi = clamp_size(PyTuple_GET_ITEM(spec, 2));
    long limit = clamp_size(PyTuple_GET_ITEM(spec, 5));
    if (PyErr_Occurred()) return -1;
    k->lo = (int)lo;
    k->hi = hi;
    k->wild_limit = (int)(limit < 0 ? 0 : limit);
    PyObject *windows = tuple_of_items(PyTuple_GET_ITEM(spec, 6), "a shape's windows must be a sequence");
    if (windows == NULL) return -1;
    Py_ssize_t nw = PySequence_Fast_GET_SIZE(windows);
    k->n_windows = (int)nw;
    k->win_start = (int *)malloc(((size_t)nw + 1) * sizeof(int));
    k->win_mask = (uint32_t *)malloc(((size_t)nw + 1) * sizeof(uint32_t));
    k->win_ranks = (int *)malloc(((size_t)nw * (size_t)T->n_ranks + 1) * sizeof(int));
    if (k->win_start == NULL || k->win_mask == NULL || k->win_ranks == NULL) {
        Py_DECREF(windows);
        PyErr_NoMemory();
        return -1;
    }
    int at_rank = 0, last_size = 0;
    for (Py_ssize_t w = 0; w < nw; w++) {
        PyObject *ranks = PySequence_Fast_GET_ITEM(windows, w);
        Py_ssize_t n = PyObject_Length(ranks);
        if (n < 0 || n > T->n_ranks || n < last_size) {
            Py_DECREF(windows);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "windows: at most n_ranks ranks, smallest first");
            return -1;
        }
        last_size = (int)n;
        k->win_start[w] = at_rank;
        if (int_row(ranks, n, 0, T->n_ranks - 1, k->win_ranks + at_rank, "a window's ranks") < 0) {
            Py_DECREF(windows);
            return -1;
        }
        uint32_t mask = 0;
        for (Py_ssize_t j = 0; j < n; j++) mask |= (uint32_t)1 << k->win_ranks[at_rank + j];
        k->win_mask[w] = mask;
        int repeats = (int)n - __builtin_popcount(mask);
        if (repeats > T->max_repeats) T->max_repeats = repeats;
        at_rank += (int)n;
    }
    k->win_start[nw] = at_rank;
    Py_DECREF(windows);
    return 0;
}

/* CandidateTables(order, rank, suit, wild_capable, set_natural, suit_codes, joker, shapes) */
static PyObject *tables_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"order", "rank", "suit", "wild_capable", "set_natural", "suit_codes", "joker",
                            "shapes", NULL};
    PyObject *order, *rank, *suit, *wild, *natural, *suit_codes, *shapes;
    int joker;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOOiO:CandidateTables", names, &order, &rank, &suit,
                                     &wild, &natural, &suit_codes, &joker, &shapes))
        return NULL;
    Tables *T = (Tables *)type->tp_alloc(type, 0);
    if (T == NULL) return NULL;  /* tp_alloc zeroes: every pointer NULL, every count 0 */
    Py_ssize_t n_codes = PyObject_Length(order);
    if (n_codes < 0) goto fail;
    if (n_codes < 1 || n_codes > MAX_CODES) {
        PyErr_SetString(PyExc_ValueError, "too many card codes for the C candidates");
        goto fail;
    }
    T->n_codes = (int)n_codes;
    if (int_row(order, n_codes, 0, n_codes - 1, T->code_at, "order") < 0) goto fail;
    for (int c = 0; c < T->n_codes; c++) T->position[c] = -1;
    for (int p = 0; p < T->n_codes; p++) {
        if (T->position[T->code_at[p]] >= 0) {
            PyErr_SetString(PyExc_ValueError, "order: a code twice");
            goto fail;
        }
        T->position[T->code_at[p]] = p;
    }
    int flags[MAX_CODES];
    if (int_row(rank, n_codes, -1, MAX_RANKS - 1, T->rank, "rank") < 0) goto fail;
    if (int_row(suit, n_codes, -1, MAX_SUITS - 1, T->suit, "suit") < 0) goto fail;
    if (int_row(wild, n_codes, 0, 1, flags, "wild_capable") < 0) goto fail;
    for (int c = 0; c < T->n_codes; c++) T->wild_capable[c] = (uint8_t)flags[c];
    if (int_row(natural, n_codes, 0, 1, flags, "set_natural") < 0) goto fail;
    for (int c = 0; c < T->n_codes; c++) T->set_natural[c] = (uint8_t)flags[c];
    if (joker < 0 || joker >= T->n_codes) {
        PyErr_SetString(PyExc_ValueError, "joker: not a code");
        goto fail;
    }
    T->joker = joker;
    PyObject *by_suit = tuple_of_items(suit_codes, "suit_codes must be a sequence");
    if (by_suit == NULL) goto fail;
    Py_ssize_t n_suits = PySequence_Fast_GET_SIZE(by_suit);
    Py_ssize_t n_ranks = n_suits ? PyObject_Length(PySequence_Fast_GET_ITEM(by_suit, 0)) : 0;
    if (n_ranks < 0 || n_suits > MAX_SUITS || n_ranks > MAX_RANKS) {
        Py_DECREF(by_suit);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "too many suits or ranks for the C candidates");
        goto fail;
    }
    T->n_suits = (int)n_suits;
    T->n_ranks = (int)n_ranks;
    T->suit_codes = (int *)malloc(((size_t)(n_suits * n_ranks) + 1) * sizeof(int));
    if (T->suit_codes == NULL) {
        Py_DECREF(by_suit);
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t s = 0; s < n_suits; s++) {
        if (int_row(PySequence_Fast_GET_ITEM(by_suit, s), n_ranks, 0, n_codes - 1, T->suit_codes + s * n_ranks,
                    "suit_codes") < 0) {
            Py_DECREF(by_suit);
            goto fail;
        }
    }
    Py_DECREF(by_suit);
    for (int c = 0; c < T->n_codes; c++) {  /* the codes by suit and rank agree with each code's suit and rank */
        if ((T->rank[c] < 0) != (T->suit[c] < 0) || T->rank[c] >= T->n_ranks || T->suit[c] >= T->n_suits
            || (T->rank[c] >= 0 && T->suit_codes[T->suit[c] * T->n_ranks + T->rank[c]] != c)) {
            PyErr_SetString(PyExc_ValueError, "rank, suit and suit_codes disagree");
            goto fail;
        }
    }
    PyObject *specs = tuple_of_items(shapes, "shapes must be a sequence");
    if (specs == NULL) goto fail;
    Py_ssize_t n_shapes = PySequence_Fast_GET_SIZE(specs);
    if (n_shapes < 1) {
        Py_DECREF(specs);
        PyErr_SetString(PyExc_ValueError, "no shapes");
        goto fail;
    }
    T->shapes = (Shape *)calloc((size_t)n_shapes, sizeof(Shape));
    if (T->shapes == NULL) {
        Py_DECREF(specs);
        PyErr_NoMemory();
        goto fail;
    }
    T->n_shapes = (int)n_shapes;
    T->min_lo = INT32_MAX;
    T->max_hi = -SIZE_CAP;
    for (Py_ssize_t s = 0; s < n_shapes; s++) {
        if (read_shape(T, PySequence_Fast_GET_ITEM(specs, s), &T->shapes[s]) < 0) {
            Py_DECREF(specs);
            goto fail;
        }
        if (T->shapes[s].lo < T->min_lo) T->min_lo = T->shapes[s].lo;
        if (T->shapes[s].hi > T->max_hi) T->max_hi = T->shapes[s].hi;
    }
    Py_DECREF(specs);
    for (int c = 0; c < T->n_codes; c++) {
        T->code_obj[c] = PyLong_FromLong(c);
        if (T->code_obj[c] == NULL) goto fail;
    }
    return (PyObject *)T;
fail:
    Py_DECREF(T);
    return NULL;
}

static PyMethodDef tables_methods[] = {
    {"candidates", (PyCFunction)(void (*)(void))tables_candidates, METH_FASTCALL,
     "candidates(hand, pooled, /) -> the hand's candidate melds, as CandidateGenerator.pure_hand_candidates"},
    {"light_gain", (PyCFunction)(void (*)(void))tables_light_gain, METH_FASTCALL,
     "light_gain(hand, table, gain, limit, search, position, joker, pooled, tick, /) -> the light search's best"
     " gain, or None"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "loba_dsl.solver.native_candidates.CandidateTables",
    .tp_doc = "A deck's and ruleset's candidate-meld data, built once; candidates(hand, pooled) per hand.",
    .tp_basicsize = sizeof(Tables),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = tables_new,
    .tp_dealloc = tables_dealloc,
    .tp_methods = tables_methods,
};

/* ------------------------------------------------------------------ the module */

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "loba_dsl.solver.native_candidates",
    .m_doc = "The candidate melds of a hand in C (CandidateGenerator.pure_hand_candidates is the Python twin).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit_native_candidates(void) {
    if (PyType_Ready(&TablesType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "CandidateTables", (PyObject *)&TablesType) < 0
        || PyModule_AddIntConstant(m, "MAX_CODES", MAX_CODES) < 0
        || PyModule_AddIntConstant(m, "MAX_RANKS", MAX_RANKS) < 0
        || PyModule_AddIntConstant(m, "MAX_SUITS", MAX_SUITS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
