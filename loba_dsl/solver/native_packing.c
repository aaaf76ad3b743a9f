/* The solver's packing-search kernels in C: the same searches as loba_dsl/solver/packing.py.
 *
 * plain_search: the memoised search over a packed count key (fields of `bits` bits, the top bit of
 * each a guard that a subtraction borrowing from it clears).  bitmask_search: the memoised search
 * over the bitmask of free cards (every card distinct).  Both give exactly the answers of the pure
 * Python kernels (tested): the same order of options, the first of equal values kept, and the same
 * number of search states counted against the caller's clock (in bulk, every TICK_EVERY states and
 * at the end, through the `tick` callable; an exception it raises ends the search).
 *
 * Keys up to 127 bits (two 64-bit words, unsigned __int128); wider keys, or gains too large for
 * 64-bit sums, give None: the caller then runs the Python kernel.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

#define EMPTY (~(u128)0)   /* no valid key has every bit set (guard bits are clear; at most 127 bits) */
#define TICK_EVERY 1024
#define MAX_BITS 127
#define GAIN_LIMIT (((int64_t)1) << 48)   /* |gain| below this: sums over at most 2^14 melds cannot overflow */
#define MAX_DEPTH 16384

/* ------------------------------------------------------------------ the memo: open addressing */

typedef struct {
    u128 key;
    int64_t best;
    Py_ssize_t choice;  /* plain: the flat option index chosen, -1: the first card kept */
} Entry;

typedef struct {
    Entry *slots;
    size_t mask;
    size_t used;
    int heap;  /* slots were malloc'ed (else the caller's small first table, on its stack) */
} Table;

#define FIRST_SLOTS 64

static inline size_t hash_key(u128 key) {
    uint64_t x = (uint64_t)key ^ ((uint64_t)(key >> 64) * 0x9E3779B97F4A7C15ULL);
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return (size_t)x;
}

/* A table of `cap` slots (a power of two): in `first` if given (FIRST_SLOTS of them), else malloc'ed. */
static int table_init(Table *t, size_t cap, Entry *first) {
    t->heap = first == NULL;
    t->slots = first != NULL ? first : (Entry *)malloc(cap * sizeof(Entry));
    if (t->slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t k = 0; k < cap; k++) t->slots[k].key = EMPTY;
    t->mask = cap - 1;
    t->used = 0;
    return 0;
}

static void table_free(Table *t) {
    if (t->heap) free(t->slots);
    t->slots = NULL;
}

static inline Entry *table_find(const Table *t, u128 key) {
    size_t k = hash_key(key) & t->mask;
    for (;;) {
        Entry *e = &t->slots[k];
        if (e->key == key || e->key == EMPTY) return e;
        k = (k + 1) & t->mask;
    }
}

static int table_grow(Table *t) {
    Table bigger;
    if (table_init(&bigger, (t->mask + 1) * 2, NULL) < 0) return -1;
    for (size_t k = 0; k <= t->mask; k++) {
        Entry *e = &t->slots[k];
        if (e->key != EMPTY) *table_find(&bigger, e->key) = *e;
    }
    bigger.used = t->used;
    table_free(t);
    *t = bigger;
    return 0;
}

static int table_put(Table *t, u128 key, int64_t best, Py_ssize_t choice) {
    if ((t->used + 1) * 2 > t->mask + 1 && table_grow(t) < 0) return -1;
    Entry *e = table_find(t, key);
    if (e->key == EMPTY) t->used++;
    e->key = key;
    e->best = best;
    e->choice = choice;
    return 0;
}

/* ------------------------------------------------------------------ conversions */

/* 0: *out set; 1: not a non-negative int below 2^width (the caller falls back); -1: a Python error. */
static int as_u128(PyObject *o, int width, u128 *out) {
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "keys and masks must be int");
        return -1;
    }
    if (width <= 64) {
        unsigned long long lo = PyLong_AsUnsignedLongLong(o);
        if (lo == (unsigned long long)-1 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
            PyErr_Clear();
            return 1;
        }
        if (width < 64 && (lo >> width) != 0) return 1;
        *out = lo;
        return 0;
    }
    unsigned long long lo = PyLong_AsUnsignedLongLongMask(o);
    if (lo == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    PyObject *shift = PyLong_FromLong(64);
    if (shift == NULL) return -1;
    PyObject *high = PyLong_Type.tp_as_number->nb_rshift(o, shift);  /* int's own: no subclass code runs */
    Py_DECREF(shift);
    if (high == NULL) return -1;
    unsigned long long hi = PyLong_AsUnsignedLongLong(high);
    Py_DECREF(high);
    if (hi == (unsigned long long)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
        PyErr_Clear();
        return 1;
    }
    if ((hi >> (width - 64)) != 0) return 1;
    *out = ((u128)hi << 64) | lo;
    return 0;
}

/* 0: *out set; 1: out of range (fall back); -1: a Python error. */
static int as_gain(PyObject *o, int64_t *out) {
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "gains must be int");
        return -1;
    }
    int overflow = 0;
    long long g = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (g == -1 && PyErr_Occurred()) return -1;
    if (overflow || g >= GAIN_LIMIT || g <= -GAIN_LIMIT) return 1;
    *out = g;
    return 0;
}

static inline int low_bit(u128 key) {
    uint64_t lo = (uint64_t)key;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(key >> 64));
}

/* Counts `n` search states against the caller's clock; -1 if its tick raised. */
static int tick(PyObject *ticker, long n) {
    if (ticker == Py_None || n <= 0) return 0;
    PyObject *r = PyObject_CallFunction(ticker, "l", n);
    if (r == NULL) return -1;
    Py_DECREF(r);
    return 0;
}

/* A tuple of `o`'s items (a new reference; `o` itself if a tuple), else NULL with a TypeError saying `message`.
 * The inputs are copied, not read in place (PySequence_Fast), where Python code may run while their items are
 * in use (a tick, an item's __index__): a list emptied meanwhile must not free what is still read. */
static PyObject *tuple_of_items(PyObject *o, const char *message) {
    PyObject *t = PySequence_Tuple(o);
    if (t == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) PyErr_SetString(PyExc_TypeError, message);
    return t;
}

/* ------------------------------------------------------------------ the plain search */

#define MAX_FIELDS 64      /* at most 127 bits of fields of at least 2 bits */
#define SMALL_OPTIONS 128  /* options held on the stack; more are malloc'ed */

typedef struct {
    int bits;
    u128 guard;
    u128 unit[MAX_FIELDS];
    Py_ssize_t start[MAX_FIELDS + 1];  /* field i's options: start[i] .. start[i + 1] - 1 in the flat arrays */
    u128 *delta;
    int64_t *gain;
    PyObject **place;  /* the option's place (an int of the caller's), borrowed */
    Table memo;
    PyObject *ticker;
    long pending;
    long states;
    long max_states;   /* 0: no cap */
    int capped;
} Plain;

/* The best value of `key` in *out; -1 with a Python error set, or with P->capped. */
static int plain_solve(Plain *P, u128 key, int depth, int64_t *out) {
    Entry *hit = table_find(&P->memo, key);
    if (hit->key == key) {
        *out = hit->best;
        return 0;
    }
    if (depth > MAX_DEPTH) {
        PyErr_SetString(PyExc_RecursionError, "the packing search went too deep");
        return -1;
    }
    P->states++;
    if (P->max_states && P->states > P->max_states) {
        P->capped = 1;
        return -1;
    }
    if (++P->pending >= TICK_EVERY) {
        long n = P->pending;
        P->pending = 0;
        if (tick(P->ticker, n) < 0) return -1;
    }
    int i = low_bit(key) / P->bits;
    u128 unit = P->unit[i];
    int64_t best;
    if (plain_solve(P, key - unit, depth + 1, &best) < 0) return -1;
    Py_ssize_t choice = -1;
    u128 fit = key | P->guard;
    for (Py_ssize_t k = P->start[i]; k < P->start[i + 1]; k++) {
        u128 d = P->delta[k];
        if (((fit - d) & P->guard) == P->guard) {
            int64_t rest;
            if (plain_solve(P, key - d, depth + 1, &rest) < 0) return -1;
            int64_t value = P->gain[k] + rest;
            if (value > best) {
                best = value;
                choice = k;
            }
        }
    }
    if (table_put(&P->memo, key, best, choice) < 0) return -1;
    *out = best;
    return 0;
}

/* plain_search(key, bits, by_first, tick=None, max_states=0, /) -> (best, chosen) | None */
static PyObject *plain_search(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs < 3 || nargs > 5) {
        PyErr_SetString(PyExc_TypeError, "plain_search(key, bits, by_first, tick=None, max_states=0)");
        return NULL;
    }
    PyObject *key_obj = args[0], *by_first = args[2];
    PyObject *ticker = nargs > 3 ? args[3] : Py_None;
    long bits_long = PyLong_AsLong(args[1]);
    if (bits_long == -1 && PyErr_Occurred()) return NULL;
    int bits = bits_long < 0 || bits_long > 64 ? 0 : (int)bits_long;
    long max_states = 0;
    if (nargs > 4) {
        max_states = PyLong_AsLong(args[4]);
        if (max_states == -1 && PyErr_Occurred()) return NULL;
    }
    if (bits < 2 || bits > 64) {
        PyErr_SetString(PyExc_ValueError, "bits must be between 2 and 64");
        return NULL;
    }
    if (ticker != Py_None && !PyCallable_Check(ticker)) {
        PyErr_SetString(PyExc_TypeError, "tick must be callable or None");
        return NULL;
    }
    PyObject *fields = tuple_of_items(by_first, "by_first must be a sequence");
    if (fields == NULL) return NULL;
    Py_ssize_t nfields = PySequence_Fast_GET_SIZE(fields);
    if (nfields * (Py_ssize_t)bits > MAX_BITS) {
        Py_DECREF(fields);
        Py_RETURN_NONE;
    }
    int width = (int)(nfields * bits);
    Plain P;
    P.bits = bits;
    P.guard = 0;
    P.ticker = ticker;
    P.pending = P.states = 0;
    P.max_states = max_states;
    P.capped = 0;
    P.memo.slots = NULL;
    P.memo.heap = 0;
    u128 small_delta[SMALL_OPTIONS];
    int64_t small_gain[SMALL_OPTIONS];
    PyObject *small_place[SMALL_OPTIONS];
    Entry first[FIRST_SLOTS];
    PyObject *rows[MAX_FIELDS];
    P.delta = small_delta;
    P.gain = small_gain;
    P.place = small_place;
    PyObject *result = NULL;
    Py_ssize_t total = 0, got = 0;
    for (; got < nfields; got++) {
        P.unit[got] = (u128)1 << (bits * got);
        P.guard |= P.unit[got] << (bits - 1);
        /* tuples: they keep the options (and the places chosen, borrowed) alive while the tick runs */
        rows[got] = tuple_of_items(PySequence_Fast_GET_ITEM(fields, got), "each field's options must be a sequence");
        if (rows[got] == NULL) goto done;
        P.start[got] = total;
        total += PySequence_Fast_GET_SIZE(rows[got]);
    }
    P.start[nfields] = total;
    if (total > SMALL_OPTIONS) {
        P.delta = (u128 *)malloc((size_t)total * sizeof(u128));
        P.gain = (int64_t *)malloc((size_t)total * sizeof(int64_t));
        P.place = (PyObject **)malloc((size_t)total * sizeof(PyObject *));
        if (P.delta == NULL || P.gain == NULL || P.place == NULL) {
            PyErr_NoMemory();
            goto done;
        }
    }
    for (Py_ssize_t i = 0; i < nfields; i++) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(rows[i]);
        PyObject **items = PySequence_Fast_ITEMS(rows[i]);
        for (Py_ssize_t k = 0; k < n; k++) {
            PyObject *opt = items[k];
            if (!PyTuple_Check(opt) || PyTuple_GET_SIZE(opt) != 3) {
                PyErr_SetString(PyExc_TypeError, "an option is a tuple (delta, gain, place)");
                goto done;
            }
            Py_ssize_t f = P.start[i] + k;
            int r = as_u128(PyTuple_GET_ITEM(opt, 0), width, &P.delta[f]);
            if (r == 0) r = as_gain(PyTuple_GET_ITEM(opt, 1), &P.gain[f]);
            if (r < 0) goto done;
            if (r > 0 || (P.delta[f] & P.guard) != 0) {  /* a count reaching a guard bit: not a meld of these fields */
                result = Py_NewRef(Py_None);
                goto done;
            }
            P.place[f] = PyTuple_GET_ITEM(opt, 2);
        }
    }
    u128 key;
    int r = as_u128(key_obj, width, &key);
    if (r < 0) goto done;
    if (r > 0 || (key & P.guard) != 0) {  /* a count that reaches a guard bit: not a key of these fields */
        result = Py_NewRef(Py_None);
        goto done;
    }
    if (table_init(&P.memo, FIRST_SLOTS, first) < 0) goto done;
    if (table_put(&P.memo, 0, 0, -1) < 0) goto done;
    int64_t best;
    if (plain_solve(&P, key, 0, &best) < 0) {
        if (P.capped) result = Py_NewRef(Py_None);
        goto done;
    }
    if (tick(P.ticker, P.pending) < 0) goto done;
    PyObject *chosen = PyList_New(0);
    if (chosen == NULL) goto done;
    while (key) {
        Entry *e = table_find(&P.memo, key);
        if (e->choice >= 0) {
            if (PyList_Append(chosen, P.place[e->choice]) < 0) {
                Py_DECREF(chosen);
                goto done;
            }
            key -= P.delta[e->choice];
        } else {
            key -= P.unit[low_bit(key) / bits];
        }
    }
    PyObject *value = PyLong_FromLongLong((long long)best);
    if (value == NULL) {
        Py_DECREF(chosen);
        goto done;
    }
    result = PyTuple_New(2);
    if (result == NULL) {
        Py_DECREF(value);
        Py_DECREF(chosen);
        goto done;
    }
    PyTuple_SET_ITEM(result, 0, value);
    PyTuple_SET_ITEM(result, 1, chosen);
done:
    for (Py_ssize_t i = 0; i < got; i++) Py_DECREF(rows[i]);
    if (P.delta != small_delta) free(P.delta);
    if (P.gain != small_gain) free(P.gain);
    if (P.place != small_place) free(P.place);
    table_free(&P.memo);
    Py_DECREF(fields);
    return result;
}

/* ------------------------------------------------------------------ the bitmask search */

typedef struct {
    PyObject_HEAD
    int n;
    Py_ssize_t *start;   /* the options whose lowest card is card b: start[b] .. start[b + 1] - 1 */
    u128 *mask;
    int64_t *gain;
    Table memo;
    PyObject *ticker;
    long pending;
} Bitmask;

static int bitmask_solve(Bitmask *B, u128 free_cards, int depth, int64_t *out) {
    Entry *hit = table_find(&B->memo, free_cards);
    if (hit->key == free_cards) {
        *out = hit->best;
        return 0;
    }
    if (depth > MAX_DEPTH) {
        PyErr_SetString(PyExc_RecursionError, "the bitmask search went too deep");
        return -1;
    }
    if (++B->pending >= TICK_EVERY) {
        long n = B->pending;
        B->pending = 0;
        if (tick(B->ticker, n) < 0) return -1;
    }
    int b = low_bit(free_cards);
    u128 low = (u128)1 << b;
    int64_t best;
    if (bitmask_solve(B, free_cards ^ low, depth + 1, &best) < 0) return -1;
    for (Py_ssize_t k = B->start[b]; k < B->start[b + 1]; k++) {
        u128 m = B->mask[k];
        if ((m & free_cards) == m) {
            int64_t rest;
            if (bitmask_solve(B, free_cards ^ m, depth + 1, &rest) < 0) return -1;
            int64_t value = B->gain[k] + rest;
            if (value > best) best = value;
        }
    }
    if (table_put(&B->memo, free_cards, best, -1) < 0) return -1;
    *out = best;
    return 0;
}

static PyObject *bitmask_call(PyObject *self, PyObject *args, PyObject *kwargs) {
    Bitmask *B = (Bitmask *)self;
    if (kwargs != NULL || PyTuple_GET_SIZE(args) != 1) {
        PyErr_SetString(PyExc_TypeError, "a bitmask search takes one argument: the mask of free cards");
        return NULL;
    }
    PyObject *free_obj = PyTuple_GET_ITEM(args, 0);
    u128 free_cards;
    int r = as_u128(free_obj, B->n, &free_cards);
    if (r < 0) return NULL;
    if (r > 0) {
        PyErr_SetString(PyExc_ValueError, "free must be a mask of the search's cards");
        return NULL;
    }
    int64_t best;
    if (bitmask_solve(B, free_cards, 0, &best) < 0) {
        B->pending = 0;
        return NULL;
    }
    long n = B->pending;
    B->pending = 0;
    if (tick(B->ticker, n) < 0) return NULL;
    return PyLong_FromLongLong(best);
}

static void bitmask_dealloc(PyObject *self) {
    Bitmask *B = (Bitmask *)self;
    free(B->start);
    free(B->mask);
    free(B->gain);
    table_free(&B->memo);
    Py_XDECREF(B->ticker);
    Py_TYPE(self)->tp_free(self);
}

static PyTypeObject BitmaskType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "loba_dsl.solver.native_packing.BitmaskSearch",
    .tp_doc = "A memoised search over the bitmask of free cards; call it with a mask for its best gain.",
    .tp_basicsize = sizeof(Bitmask),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = bitmask_dealloc,
    .tp_call = bitmask_call,
};

/* bitmask_search(n, by_low, tick=None) -> BitmaskSearch | None; by_low[b]: the (mask, gain) options
 * whose lowest card is card b, in the order they are tried. */
static PyObject *bitmask_search(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"n", "by_low", "tick", NULL};
    int n;
    PyObject *by_low, *ticker = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iO|O:bitmask_search", names, &n, &by_low, &ticker))
        return NULL;
    if (ticker != Py_None && !PyCallable_Check(ticker)) {
        PyErr_SetString(PyExc_TypeError, "tick must be callable or None");
        return NULL;
    }
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "n must not be negative");
        return NULL;
    }
    if (n > MAX_BITS) Py_RETURN_NONE;
    PyObject *lows = tuple_of_items(by_low, "by_low must be a sequence");
    if (lows == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(lows) != n) {
        Py_DECREF(lows);
        PyErr_SetString(PyExc_ValueError, "by_low must have one list of options per card");
        return NULL;
    }
    Bitmask *B = PyObject_New(Bitmask, &BitmaskType);
    if (B == NULL) {
        Py_DECREF(lows);
        return NULL;
    }
    B->n = n;
    B->start = NULL;
    B->mask = NULL;
    B->gain = NULL;
    B->memo.slots = NULL;
    B->ticker = Py_NewRef(ticker);
    B->pending = 0;
    PyObject *result = NULL;
    Py_ssize_t total = 0;
    for (Py_ssize_t b = 0; b < n; b++) {
        Py_ssize_t size = PyObject_Length(PySequence_Fast_GET_ITEM(lows, b));
        if (size < 0) goto done;
        total += size;
    }
    B->start = (Py_ssize_t *)malloc(((size_t)n + 1) * sizeof(Py_ssize_t));
    B->mask = (u128 *)malloc(((size_t)total + 1) * sizeof(u128));
    B->gain = (int64_t *)malloc(((size_t)total + 1) * sizeof(int64_t));
    if (B->start == NULL || B->mask == NULL || B->gain == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t f = 0;
    for (Py_ssize_t b = 0; b < n; b++) {
        B->start[b] = f;
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(lows, b), "each card's options must be a sequence");
        if (row == NULL) goto done;
        Py_ssize_t size = PySequence_Fast_GET_SIZE(row);
        for (Py_ssize_t k = 0; k < size && f < total; k++, f++) {
            PyObject *opt = PySequence_Fast_GET_ITEM(row, k);
            if (!PyTuple_Check(opt) || PyTuple_GET_SIZE(opt) != 2) {
                Py_DECREF(row);
                PyErr_SetString(PyExc_TypeError, "an option is a tuple (mask, gain)");
                goto done;
            }
            int r = as_u128(PyTuple_GET_ITEM(opt, 0), n, &B->mask[f]);
            if (r == 0) r = as_gain(PyTuple_GET_ITEM(opt, 1), &B->gain[f]);
            if (r == 0 && (B->mask[f] == 0 || low_bit(B->mask[f]) != b)) {
                PyErr_SetString(PyExc_ValueError, "an option's lowest card must be the card it is listed under");
                r = -1;
            }
            if (r != 0) {
                Py_DECREF(row);
                if (r > 0) result = Py_NewRef(Py_None);
                goto done;
            }
        }
        Py_DECREF(row);
    }
    B->start[n] = f;
    if (table_init(&B->memo, FIRST_SLOTS, NULL) < 0) goto done;
    if (table_put(&B->memo, 0, 0, -1) < 0) goto done;
    result = Py_NewRef((PyObject *)B);
done:
    Py_DECREF(lows);
    Py_DECREF(B);
    return result;
}

/* ------------------------------------------------------------------ the plain search of melds */

#define MAX_CODES 4096    /* card codes the melds' fields are read from (a deck's are far fewer) */

typedef struct {
    Py_ssize_t uses;
    Py_ssize_t position;
    long code;
} FieldKey;

static int field_order(const void *a, const void *b) {
    const FieldKey *x = (const FieldKey *)a, *y = (const FieldKey *)b;
    if (x->uses != y->uses) return x->uses < y->uses ? -1 : 1;
    return (x->position > y->position) - (x->position < y->position);
}

typedef struct {
    Py_ssize_t first;
    int64_t gain;
    Py_ssize_t place;
} OptionKey;

static int option_order(const void *a, const void *b) {
    const OptionKey *x = (const OptionKey *)a, *y = (const OptionKey *)b;
    if (x->first != y->first) return x->first < y->first ? -1 : 1;
    if (x->gain != y->gain) return x->gain > y->gain ? -1 : 1;
    return (x->place > y->place) - (x->place < y->place);
}

/* A card code of `seq`'s item i into *out (0 <= code < n); -1 with an error set. */
static int code_at(PyObject *item, Py_ssize_t n, long *out) {
    if (!PyLong_Check(item)) {  /* no __index__: a meld's codes are read twice and must read alike */
        PyErr_SetString(PyExc_TypeError, "card codes must be int");
        return -1;
    }
    long c = PyLong_AsLong(item);
    if (c == -1 && PyErr_Occurred()) return -1;
    if (c < 0 || c >= n) {
        PyErr_SetString(PyExc_ValueError, "a card code outside the processing order");
        return -1;
    }
    *out = c;
    return 0;
}

/* plain_search_melds(cards, raw, position, joker, pooled, tick=None, /) -> (best, chosen) | None
 *
 * Solver._plain_search in one call: the fields are the codes the melds `raw` ((meld, gain), ...)
 * use, fewest melds first then by `position` (the processing order, per code); a meld holding a
 * code of `pooled` also uses the `joker`'s field, once per such card; each field's options are the
 * melds whose lowest field it is, greatest gain first (then as given); then plain_search.  None:
 * the key would be wider than the kernel takes (the caller builds it in Python). */
static PyObject *plain_search_melds(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs < 5 || nargs > 6) {
        PyErr_SetString(PyExc_TypeError, "plain_search_melds(cards, raw, position, joker, pooled, tick=None)");
        return NULL;
    }
    PyObject *ticker = nargs > 5 ? args[5] : Py_None;
    if (ticker != Py_None && !PyCallable_Check(ticker)) {
        PyErr_SetString(PyExc_TypeError, "tick must be callable or None");
        return NULL;
    }
    if (!PyTuple_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "position must be a tuple");
        return NULL;
    }
    PyObject *position = args[2];
    Py_ssize_t n_codes = PyTuple_GET_SIZE(position);
    if (n_codes > MAX_CODES) Py_RETURN_NONE;
    long joker;
    if (code_at(args[3], n_codes, &joker) < 0) return NULL;
    PyObject *pooled = args[4];
    if (!PyAnySet_Check(pooled)) {
        PyErr_SetString(PyExc_TypeError, "pooled must be a set or frozenset");
        return NULL;
    }
    PyObject *cards = tuple_of_items(args[0], "cards must be a sequence");
    if (cards == NULL) return NULL;
    PyObject *raw = tuple_of_items(args[1], "raw must be a sequence");
    if (raw == NULL) {
        Py_DECREF(cards);
        return NULL;
    }
    PyObject *result = NULL;
    Py_ssize_t n_raw = PySequence_Fast_GET_SIZE(raw);
    Py_ssize_t uses[MAX_CODES];
    Py_ssize_t seen[MAX_CODES];    /* the last meld (its place + 1) that counted the code */
    signed char in_pool[MAX_CODES];
    int field_of[MAX_CODES];
    memset(uses, 0, (size_t)n_codes * sizeof(Py_ssize_t));
    memset(seen, 0, (size_t)n_codes * sizeof(Py_ssize_t));
    memset(in_pool, 0, (size_t)n_codes);
    int any_pool = 0;
    if (PySet_GET_SIZE(pooled) > 0) {
        PyObject *it = PyObject_GetIter(pooled);
        if (it == NULL) goto out;
        PyObject *item;
        while ((item = PyIter_Next(it)) != NULL) {
            long c;
            int r = code_at(item, n_codes, &c);
            Py_DECREF(item);
            if (r < 0) {
                Py_DECREF(it);
                goto out;
            }
            in_pool[c] = 1;
            any_pool = 1;
        }
        Py_DECREF(it);
        if (PyErr_Occurred()) goto out;
    }
    int64_t *gains = NULL;
    OptionKey *options = NULL;
    u128 *deltas = NULL;
    PyObject **places = NULL;
    if (n_raw > 0) {
        gains = (int64_t *)malloc((size_t)n_raw * sizeof(int64_t));
        options = (OptionKey *)malloc((size_t)n_raw * sizeof(OptionKey));
        deltas = (u128 *)malloc((size_t)n_raw * sizeof(u128));
        places = (PyObject **)calloc((size_t)n_raw, sizeof(PyObject *));
        if (gains == NULL || options == NULL || deltas == NULL || places == NULL) {
            PyErr_NoMemory();
            goto done;
        }
    }
    /* The codes each meld uses (once a meld), the joker's too where it holds a card of the pool. */
    for (Py_ssize_t j = 0; j < n_raw; j++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(raw, j);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2 || !PyTuple_Check(PyTuple_GET_ITEM(pair, 0))) {
            PyErr_SetString(PyExc_TypeError, "raw holds (meld tuple, gain) pairs");
            goto done;
        }
        int r = as_gain(PyTuple_GET_ITEM(pair, 1), &gains[j]);
        if (r < 0) goto done;
        if (r > 0) {
            result = Py_NewRef(Py_None);
            goto done;
        }
        PyObject *meld = PyTuple_GET_ITEM(pair, 0);
        int pooled_card = 0;
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(meld); k++) {
            long c;
            if (code_at(PyTuple_GET_ITEM(meld, k), n_codes, &c) < 0) goto done;
            if (seen[c] != j + 1) {
                seen[c] = j + 1;
                uses[c]++;
            }
            if (in_pool[c]) pooled_card = 1;
        }
        if (pooled_card && any_pool && seen[joker] != j + 1) {
            seen[joker] = j + 1;
            uses[joker]++;
        }
    }
    FieldKey fields[MAX_FIELDS];
    Py_ssize_t nfields = 0;
    for (long c = 0; c < n_codes; c++) {
        if (uses[c]) {
            if (nfields == MAX_FIELDS) {
                result = Py_NewRef(Py_None);
                goto done;
            }
            Py_ssize_t p = PyLong_AsSsize_t(PyTuple_GET_ITEM(position, c));
            if (p == -1 && PyErr_Occurred()) goto done;
            fields[nfields].uses = uses[c];
            fields[nfields].position = p;
            fields[nfields].code = c;
            nfields++;
        }
    }
    qsort(fields, (size_t)nfields, sizeof(FieldKey), field_order);
    for (long c = 0; c < n_codes; c++) field_of[c] = -1;
    for (Py_ssize_t i = 0; i < nfields; i++) field_of[fields[i].code] = (int)i;
    long counts[MAX_FIELDS];
    long most = 0;
    memset(counts, 0, sizeof counts);
    Py_ssize_t n_cards = PySequence_Fast_GET_SIZE(cards);
    for (Py_ssize_t k = 0; k < n_cards; k++) {
        long c;
        if (code_at(PySequence_Fast_GET_ITEM(cards, k), n_codes, &c) < 0) goto done;
        int f = field_of[c];
        if (f >= 0 && ++counts[f] > most) most = counts[f];
    }
    int bits = 1;
    while ((most >> bits) != 0) bits++;
    bits += 1;                    /* the count, and a guard bit */
    if (bits < 5) bits = 5;       /* search.BITS */
    if (nfields * (Py_ssize_t)bits > MAX_BITS) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    Plain P;
    P.bits = bits;
    P.guard = 0;
    P.ticker = ticker;
    P.pending = P.states = 0;
    P.max_states = 0;
    P.capped = 0;
    P.memo.slots = NULL;
    P.memo.heap = 0;
    for (Py_ssize_t i = 0; i < nfields; i++) {
        P.unit[i] = (u128)1 << (bits * i);
        P.guard |= P.unit[i] << (bits - 1);
    }
    for (Py_ssize_t j = 0; j < n_raw; j++) {
        PyObject *meld = PyTuple_GET_ITEM(PySequence_Fast_GET_ITEM(raw, j), 0);
        u128 delta = 0;
        Py_ssize_t first = nfields;
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(meld); k++) {
            long c = PyLong_AsLong(PyTuple_GET_ITEM(meld, k));
            int f = field_of[c];
            delta += P.unit[f];
            if (f < first) first = f;
            if (in_pool[c]) {
                f = field_of[joker];
                delta += P.unit[f];
                if (f < first) first = f;
            }
        }
        if (delta & P.guard) {  /* a count reaching a guard bit: leave it to the Python kernel */
            result = Py_NewRef(Py_None);
            goto done;
        }
        deltas[j] = delta;
        options[j].first = first;
        options[j].gain = gains[j];
        options[j].place = j;
    }
    if (n_raw > 1) qsort(options, (size_t)n_raw, sizeof(OptionKey), option_order);
    u128 *sorted_delta = NULL;
    int64_t *sorted_gain = NULL;
    if (n_raw > 0) {
        sorted_delta = (u128 *)malloc((size_t)n_raw * sizeof(u128));
        sorted_gain = (int64_t *)malloc((size_t)n_raw * sizeof(int64_t));
        if (sorted_delta == NULL || sorted_gain == NULL) {
            free(sorted_delta);
            free(sorted_gain);
            PyErr_NoMemory();
            goto done;
        }
    }
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i <= nfields; i++) {
        while (k < n_raw && options[k].first < i) k++;
        P.start[i] = k;
    }
    for (Py_ssize_t o = 0; o < n_raw; o++) {
        sorted_delta[o] = deltas[options[o].place];
        sorted_gain[o] = options[o].gain;
    }
    P.delta = sorted_delta;
    P.gain = sorted_gain;
    P.place = NULL;
    u128 key = 0;
    for (Py_ssize_t i = 0; i < nfields; i++) key += (u128)counts[i] * P.unit[i];
    Entry first_slots[FIRST_SLOTS];
    int64_t best = 0;
    int ok = table_init(&P.memo, FIRST_SLOTS, first_slots) == 0 && table_put(&P.memo, 0, 0, -1) == 0
             && plain_solve(&P, key, 0, &best) == 0 && tick(P.ticker, P.pending) == 0;
    PyObject *chosen = ok ? PyList_New(0) : NULL;
    if (chosen != NULL) {
        while (key) {
            Entry *e = table_find(&P.memo, key);
            if (e->choice >= 0) {
                PyObject *place = PyLong_FromSsize_t(options[e->choice].place);
                if (place == NULL || PyList_Append(chosen, place) < 0) {
                    Py_XDECREF(place);
                    Py_CLEAR(chosen);
                    break;
                }
                Py_DECREF(place);
                key -= P.delta[e->choice];
            } else {
                key -= P.unit[low_bit(key) / bits];
            }
        }
    }
    if (chosen != NULL) {
        result = Py_BuildValue("(LN)", (long long)best, chosen);
    }
    table_free(&P.memo);
    free(sorted_delta);
    free(sorted_gain);
done:
    free(gains);
    free(options);
    free(deltas);
    free(places);
out:
    Py_DECREF(cards);
    Py_DECREF(raw);
    return result;
}

/* ------------------------------------------------------------------ the module */

static PyMethodDef methods[] = {
    {"plain_search", (PyCFunction)(void (*)(void))plain_search, METH_FASTCALL,
     "plain_search(key, bits, by_first, tick=None, max_states=0, /) -> (best, chosen) or None"},
    {"plain_search_melds", (PyCFunction)(void (*)(void))plain_search_melds, METH_FASTCALL,
     "plain_search_melds(cards, raw, position, joker, pooled, tick=None, /) -> (best, chosen) or None"},
    {"bitmask_search", (PyCFunction)(void (*)(void))bitmask_search, METH_VARARGS | METH_KEYWORDS,
     "bitmask_search(n, by_low, tick=None) -> BitmaskSearch or None"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "loba_dsl.solver.native_packing",
    .m_doc = "The solver's packing-search kernels in C (loba_dsl.solver.packing is the pure-Python twin).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit_native_packing(void) {
    if (PyType_Ready(&BitmaskType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "BitmaskSearch", (PyObject *)&BitmaskType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "MAX_BITS", MAX_BITS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
