/* The least penalty left in a Loba de Menos hand, by an exact search in plain C: the anchor of
 * benchmarks/bench_cold.py (built there with the system cc; not part of the package).
 *
 * The rules (docs/rules.md section 1): two 52-card decks and 4 Jokers; melds are piernas (3 or 4 cards
 * of one rank in distinct suits, never a wild) and escaleras (3 to 13 cards of one suit in consecutive
 * ranks, ace low only, at most one Joker, which stands for any one rank of the run); the penalty of a
 * card left in hand is Joker 25, A 15, J Q K 10, 2-10 face value.  A hand's best score is the least
 * penalty of the cards left after putting down disjoint melds.
 *
 * The search is the one our solver runs, written for this ruleset alone: the first free card (suit
 * major, rank minor) is kept in hand, or put in each meld that holds it, the rest of the meld drawn
 * from the free cards; every state (the free cards' counts) is memoised for the hand.
 *
 * Input (stdin): a line "N REPEATS", then N hands, one a line: the number of cards, then each card as
 * suit * 13 + rank (rank 0 the ace, 12 the king) or 52 for a Joker.  Output (stdout): each hand's best
 * score, one a line, then "cpu_seconds T": the least CPU time over REPEATS passes over all the hands
 * (the memo emptied for every hand; reading the input is not timed).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SUITS 4
#define RANKS 13
#define JOKER 52
#define JOKER_PENALTY 25
#define MEMO_SIZE 4096 /* states a hand may visit before the memo is full (then states are searched again) */

typedef struct { uint64_t lo, hi; } State; /* 2 bits a card: cards 0-31 in lo, 32-51 in hi; Jokers at hi bit 40 */

static int penalty[RANKS];

static int count_of(const State *s, int card) {
    return card < 32 ? (int)((s->lo >> (2 * card)) & 3) : (int)((s->hi >> (2 * (card - 32))) & 3);
}

static void add(State *s, int card, int n) { /* n may be negative */
    if (card < 32) s->lo += (uint64_t)(int64_t)n << (2 * card);
    else s->hi += (uint64_t)(int64_t)n << (2 * (card - 32));
}

static int jokers_of(const State *s) { return (int)((s->hi >> 40) & 7); }

static void add_jokers(State *s, int n) { s->hi += (uint64_t)(int64_t)n << 40; }

/* The memo of one hand: open addressing, entries of older hands told apart by a stamp. */
typedef struct { uint64_t lo, hi; uint32_t stamp; int value; } Entry;
static Entry memo[MEMO_SIZE];
static uint32_t stamp = 0;
static int memo_used = 0;

static Entry *slot(const State *s) {
    uint64_t h = (s->lo * 0x9E3779B97F4A7C15ULL) ^ (s->hi * 0xC2B2AE3D27D4EB4FULL);
    size_t i = (size_t)(h >> 52) & (MEMO_SIZE - 1);
    while (memo[i].stamp == stamp && (memo[i].lo != s->lo || memo[i].hi != s->hi)) i = (i + 1) & (MEMO_SIZE - 1);
    return &memo[i];
}

static int first_card(const State *s) {
    if (s->lo) return __builtin_ctzll(s->lo) / 2;
    uint64_t naturals = s->hi & ((1ULL << 40) - 1);
    return naturals ? 32 + __builtin_ctzll(naturals) / 2 : -1;
}

/* The greatest total penalty of disjoint melds within the free cards s. */
static int best_gain(State s) {
    int first = first_card(&s);
    if (first < 0) return 0; /* Jokers alone meld nothing (an escalera holds two naturals at least) */
    Entry *e = slot(&s);
    if (e->stamp == stamp) return e->value;
    int su = first / RANKS, r = first % RANKS, jokers = jokers_of(&s);
    State rest = s;
    add(&rest, first, -1);
    int best = best_gain(rest); /* the first card kept in hand */

    /* Piernas: the first card with 2 or 3 cards of its rank in other suits (lower suits hold nothing). */
    int others[SUITS], n_others = 0;
    for (int t = su + 1; t < SUITS; t++)
        if (count_of(&s, t * RANKS + r)) others[n_others++] = t;
    for (int mask = 1; mask < (1 << n_others); mask++) {
        int size = __builtin_popcount(mask);
        if (size < 2) continue;
        State m = rest;
        for (int k = 0; k < n_others; k++)
            if (mask >> k & 1) add(&m, others[k] * RANKS + r, -1);
        int v = penalty[r] * (size + 1) + best_gain(m);
        if (v > best) best = v;
    }

    /* Escaleras holding the first card as a natural: its suit's lower ranks are gone, so the run starts
     * at its rank, or one below with the Joker there; at most one Joker, for a missing rank or in place
     * of a held one (that card then stays free). */
    int base = su * RANKS;
    if (jokers && r > 0) { /* Joker at r - 1, naturals r..b */
        State m = rest;
        add_jokers(&m, -1);
        int gain = JOKER_PENALTY + penalty[r];
        for (int b = r + 1; b < RANKS && count_of(&s, base + b); b++) {
            add(&m, base + b, -1);
            gain += penalty[b];
            int v = gain + best_gain(m);
            if (v > best) best = v;
        }
    }
    {   /* runs r..b: naturals where held, the Joker in one gap or in place of one held card above r */
        State plain = rest; /* every held rank of r..b taken */
        int gain = penalty[r], gap = -1;
        for (int b = r + 1; b < RANKS; b++) {
            if (count_of(&s, base + b)) {
                add(&plain, base + b, -1);
                gain += penalty[b];
            } else if (gap < 0 && jokers) {
                gap = b;
            } else {
                break;
            }
            if (b < r + 2) continue; /* three cards at least */
            if (gap < 0) {
                int v = gain + best_gain(plain);
                if (v > best) best = v;
                if (!jokers) continue;
                for (int p = r + 1; p <= b; p++) { /* the Joker in place of the held card p */
                    State m = plain;
                    add(&m, base + p, 1);
                    add_jokers(&m, -1);
                    v = gain - penalty[p] + JOKER_PENALTY + best_gain(m);
                    if (v > best) best = v;
                }
            } else {
                State m = plain;
                add_jokers(&m, -1);
                int v = gain + JOKER_PENALTY + best_gain(m);
                if (v > best) best = v;
            }
        }
    }
    if (memo_used < MEMO_SIZE * 3 / 4) { /* keep the table sparse enough for its probes to end */
        e = slot(&s);
        e->lo = s.lo; e->hi = s.hi; e->stamp = stamp; e->value = best;
        memo_used++;
    }
    return best;
}

static int best_score(const int *cards, int n) {
    State s = {0, 0};
    int total = 0;
    for (int i = 0; i < n; i++) {
        if (cards[i] == JOKER) { add_jokers(&s, 1); total += JOKER_PENALTY; }
        else { add(&s, cards[i], 1); total += penalty[cards[i] % RANKS]; }
    }
    stamp++;
    memo_used = 0;
    return total - best_gain(s);
}

int main(void) {
    for (int r = 0; r < RANKS; r++) penalty[r] = r == 0 ? 15 : r >= 10 ? 10 : r + 1;
    int n, repeats;
    if (scanf("%d %d", &n, &repeats) != 2 || n < 0 || repeats < 1) return 2;
    int *sizes = malloc(sizeof(int) * (size_t)(n ? n : 1));
    int *cards = malloc(sizeof(int) * 32 * (size_t)(n ? n : 1));
    int *scores = malloc(sizeof(int) * (size_t)(n ? n : 1));
    if (!sizes || !cards || !scores) return 2;
    for (int h = 0; h < n; h++) {
        if (scanf("%d", &sizes[h]) != 1 || sizes[h] < 0 || sizes[h] > 32) return 2;
        for (int i = 0; i < sizes[h]; i++) {
            int *c = &cards[32 * h + i];
            if (scanf("%d", c) != 1 || *c < 0 || *c > JOKER) return 2;
        }
    }
    double least = -1;
    for (int rep = 0; rep < repeats; rep++) {
        clock_t t0 = clock();
        for (int h = 0; h < n; h++) scores[h] = best_score(&cards[32 * h], sizes[h]);
        double t = (double)(clock() - t0) / CLOCKS_PER_SEC;
        if (least < 0 || t < least) least = t;
    }
    for (int h = 0; h < n; h++) printf("%d\n", scores[h]);
    printf("cpu_seconds %.9f\n", least);
    free(sizes); free(cards); free(scores);
    return 0;
}
