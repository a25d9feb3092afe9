# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The compiled search core: iterative DFS over a compact, mutable position.

One object holds one position in C arrays and changes it in place (apply and
undo), with two 64-bit Zobrist hashes kept up to date move by move.  Visited
positions go into a bounded transposition table of 128-bit keys (buckets of
four, evicting).  See docs/SOLVER.md for the encoding and for why every
pruning is sound.  A search runs without the GIL (``Core._search``), so
cores in several threads of one process search at once; each core belongs
to one thread at a time.

Cards are coded ``suit * 13 + rank - 1`` (0..51); a card byte in a column
adds FLAG when the card was moved during the open reprieve and is not (yet)
on a legal place.  Settled moved cards carry no flag: a card lying on its
parent (or a King at the bottom) stays settled until it is moved again, so
the engine's "moved" marks of settled cards never matter.
"""

from libc.stdint cimport uint8_t, int16_t, int32_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memset, memcpy
from posix.mman cimport mmap, munmap, MAP_PRIVATE, MAP_ANONYMOUS, MAP_FAILED, PROT_READ, PROT_WRITE
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from cpython.exc cimport PyErr_CheckSignals

import threading

cdef enum:
    MAXC = 13
    MAXH = 112
    FLAG = 64
    CARD = 63
    K_COLUMN = 0
    K_FOUND = 1
    K_DEAL = 2
    K_STOP = 3
    RULE_NONE = 0
    RULE_FREE = 1
    RULE_STRICT = 2
    BUCKET = 4
    MAX_DEPTH = 65536
    MAX_MOVES = 8388608
    FREE_BIT = 16777216
    RECENT = 16384
    START_BUCKETS = 65536
    PLAN_BIT = 1073741824   # a move-buffer entry that starts a plan: PLAN_BIT | length
    PLAN_MAX = 160          # primitive moves per plan
    MAX_PLANS = 40          # plans per reprieve
    PLAN_VISITS = 512       # intermediate positions remembered while planning
    EMPTY_MAX = 6           # the tallest column an "empty it" goal takes on
    ROOM = 3100 + MAX_PLANS * (PLAN_MAX + 1)

# What ``Core._dfs`` returns: a start already searched, every child searched
# (lost unless the search was incomplete), a limit or the deadline reached, a
# win, no memory for the move buffer.
cdef enum:
    DFS_LOST = 0
    DFS_DONE = 1
    DFS_UNKNOWN = 2
    DFS_WON = 3
    DFS_NOMEM = 4

# Position tables given back by cores that ended, kept for the next core of
# the same size.  Many short searches (the fair player makes about sixty a
# decision) would otherwise spend a fifth to a quarter of their time in page
# faults, on fresh anonymous memory: a kept table is already backed, and only
# the part its core used is zeroed again.  At most SPARE_BYTES are kept in
# all, so a process holds no more than that beyond its live cores' tables,
# and a table from a large search is never kept.  The cores' answers do not
# change: a table always starts all zeros.
cdef enum:
    SPARES = 4
cdef size_t SPARE_BYTES = 64 * 1024 * 1024
cdef void *_spare_table[SPARES]
cdef size_t _spare_len[SPARES]
cdef size_t _kept = 0
cdef bint _reuse = True


cdef void *_take_table(size_t length) noexcept:
    """Zeroed memory for a position table of ``length`` bytes (MAP_FAILED if none)."""
    global _kept
    cdef int i
    cdef void *mem
    for i in range(SPARES):
        if _spare_table[i] != NULL and _spare_len[i] == length:
            mem = _spare_table[i]
            _spare_table[i] = NULL
            _kept -= length
            return mem
    return mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)


cdef void _give_table(void *mem, size_t length, size_t used) noexcept:
    """A table's memory back from its core: kept, zeroed, for the next one, or unmapped."""
    global _kept
    cdef int i
    if _reuse and _kept + length <= SPARE_BYTES:
        for i in range(SPARES):
            if _spare_table[i] == NULL:
                memset(mem, 0, used if used < length else length)
                _spare_table[i] = mem
                _spare_len[i] = length
                _kept += length
                return
    munmap(mem, length)


def reuse_tables(bint on):
    """Keep the position tables of ended cores for the next ones (on by default).

    Off, every core maps fresh memory and unmaps it when it ends, and the
    tables kept so far are unmapped; for benchmarks that compare the two.
    """
    global _reuse, _kept
    cdef int i
    _reuse = on
    if not on:
        for i in range(SPARES):
            if _spare_table[i] != NULL:
                munmap(_spare_table[i], _spare_len[i])
                _spare_table[i] = NULL
        _kept = 0


def kept_table_bytes():
    """The bytes of position tables kept for the next cores (at most 64 MiB)."""
    return _kept


cdef uint8_t RANK[64]
cdef uint8_t SUIT[64]
cdef uint8_t RED[64]
cdef uint8_t CANGO[64][64]      # CANGO[child][parent]
cdef uint64_t ZC1[MAXC][MAXH][128]
cdef uint64_t ZC2[MAXC][MAXH][128]
cdef uint64_t ZFD1[MAXC][MAXH]
cdef uint64_t ZFD2[MAXC][MAXH]
cdef uint64_t ZF1[4][14][14]
cdef uint64_t ZF2[4][14][14]
cdef uint64_t ZS1[MAXH]
cdef uint64_t ZS2[MAXH]
cdef uint64_t ZR1[MAXC + 1]
cdef uint64_t ZR2[MAXC + 1]
cdef uint64_t ZO1[2]          # reprieve open or not, for the symmetric key
cdef uint64_t ZO2[2]
cdef uint64_t ODD1[MAXC]       # per-column multipliers of the positional key
cdef uint64_t ODD2[MAXC]

cdef uint64_t _seed = 0x243F6A8885A308D3ULL

cdef uint64_t _next() noexcept:
    global _seed
    _seed += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = _seed
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)

cdef void _init_tables() noexcept:
    cdef int c, p, i, j, k
    for c in range(64):
        RANK[c] = (c % 13) + 1 if c < 52 else 0
        SUIT[c] = c // 13 if c < 52 else 0
        RED[c] = 1 if (SUIT[c] == 1 or SUIT[c] == 2) else 0
    for c in range(64):
        for p in range(64):
            CANGO[c][p] = 1 if (c < 52 and p < 52 and RANK[p] == RANK[c] + 1
                                and RED[p] != RED[c]) else 0
    for i in range(MAXC):
        for j in range(MAXH):
            for k in range(128):
                ZC1[i][j][k] = _next()
                ZC2[i][j][k] = _next()
            ZFD1[i][j] = _next()
            ZFD2[i][j] = _next()
    for i in range(4):
        for j in range(14):
            for k in range(14):
                ZF1[i][j][k] = _next()
                ZF2[i][j][k] = _next()
    for i in range(MAXH):
        ZS1[i] = _next()
        ZS2[i] = _next()
    for i in range(MAXC + 1):
        ZR1[i] = _next()
        ZR2[i] = _next()
    for i in range(2):
        ZO1[i] = _next()
        ZO2[i] = _next()
    for i in range(MAXC):
        ODD1[i] = _next() | 1
        ODD2[i] = _next() | 1

_init_tables()

#: Bytes per transposition-table entry (two 64-bit keys).
ENTRY_BYTES = 16


cdef extern from *:
    """
    #define MG_PREFETCH(p) __builtin_prefetch((const void *)(p), 1, 3)
    """
    void MG_PREFETCH(const void *p) noexcept nogil


cdef struct Frame:
    int32_t start       # this node's moves in the move buffer: [start, end)
    int32_t end
    int32_t next        # the next move to try
    int32_t move        # the move taken from this node (while a child is searched)
    uint64_t h1
    uint64_t h2
    uint64_t ca1        # column hashes of the source and target before the move
    uint64_t ca2
    uint64_t cb1
    uint64_t cb2
    int32_t undo        # undo byte stack pointer before the move
    int16_t rep
    int16_t nflags
    int16_t frees
    uint8_t fd
    uint8_t f0
    uint8_t f1
    uint8_t card


# A move packed into one int32: kind in bits 0-1, source column in 2-5,
# target column in 6-9, count in 10-19, FREE_BIT (bit 24) on a free move.
# Only ``pack`` and the four getters below know this layout (its Python
# mirror is compiled.unpack_line).  A move-buffer entry with PLAN_BIT (bit 30)
# is not a move but the header of a plan: PLAN_BIT | its length.

cdef inline int32_t pack(int kind, int a, int k, int b) noexcept nogil:
    return kind | (a << 2) | (b << 6) | (k << 10)


cdef inline int move_kind(int32_t m) noexcept nogil:
    return m & 3


cdef inline int move_source(int32_t m) noexcept nogil:
    return (m >> 2) & 15


cdef inline int move_target(int32_t m) noexcept nogil:
    return (m >> 6) & 15


cdef inline int move_count(int32_t m) noexcept nogil:
    return (m >> 10) & 1023


cdef inline int plan_length(int32_t header) noexcept nogil:
    return header & 65535


cdef inline tuple unpack(int32_t m):
    """A packed move as (kind, source, count, target), columns from 0."""
    return (move_kind(m), move_source(m), move_count(m), move_target(m))


def pack_move(int kind, int source, int count, int target, bint free=False):
    """The packed form of a move (columns from 0), as ``goto`` reads and ``stage`` writes it.

    For tests of the layout: ``compiled.unpack_line`` must read it back.
    """
    return pack(kind, source, count, target) | (FREE_BIT if free else 0)


def unpack_move(int32_t m):
    """A packed move as (kind, source, count, target), columns from 0 (for tests)."""
    return unpack(m)


cdef class Core:
    """One search: a position in C arrays, a position table and the DFS stack."""

    cdef int ncols, decks, rule
    cdef uint8_t cols[MAXC][MAXH]
    cdef int h[MAXC]
    cdef int fd[MAXC]
    cdef uint8_t found[4][2]
    cdef uint8_t stock[MAXH]
    cdef int stock_n, stock_pos
    cdef int rep, nflags, nfound, total, frees
    cdef public int max_free
    cdef uint64_t h1, h2          # foundations, stock and reprieve
    cdef uint64_t c1[MAXC]
    cdef uint64_t c2[MAXC]        # one hash per column, the same tables for every column
    cdef uint64_t *table
    cdef uint64_t recent[2 * RECENT]
    cdef uint64_t mask
    cdef size_t table_len
    cdef uint64_t max_mask
    cdef long long filled
    cdef Frame *frames
    cdef int32_t *moves
    cdef int32_t moves_cap
    cdef uint8_t *undo
    cdef public long long positions
    cdef public bint incomplete
    # the reprieve planner (see _plans)
    cdef public bint planner
    cdef public int plan_goals      # goals chained in one plan
    cdef public int plan_work       # primitive moves tried while planning one reprieve
    cdef Frame pframes[PLAN_MAX]
    cdef int32_t pmoves[PLAN_MAX]
    cdef int plen, pwork, nplans, nvisits, pfound0
    cdef int32_t *pbuf
    cdef int plens[MAX_PLANS]
    cdef int pscore[MAX_PLANS]
    cdef uint64_t pkey1[MAX_PLANS]
    cdef uint64_t pkey2[MAX_PLANS]
    cdef uint64_t vkey1[PLAN_VISITS]
    cdef uint64_t vkey2[PLAN_VISITS]
    # the staged search (see stage)
    cdef int base, width
    cdef bint staging
    cdef list cands
    cdef int ncands
    cdef object progress, error
    cdef double began
    cdef bint calls_back
    cdef int won_at
    cdef long long threshold
    cdef public int w_found, w_break, w_empty, w_depth, w_king, w_down
    cdef uint8_t *tail             # a candidate's moves, packed for ``stage``

    def __cinit__(self, int decks, int ncols, int rule, list columns, list face_down,
                  list foundations, list stock, int reprieve, long long table_bytes):
        cdef int i, j, s
        cdef long long buckets
        cdef void *mem
        self.decks = decks
        self.ncols = ncols
        self.rule = rule
        self.table = NULL
        self.frames = NULL
        self.moves = NULL
        self.undo = NULL
        self.pbuf = NULL
        self.tail = NULL
        if ncols > MAXC or len(stock) >= MAXH:
            raise ValueError("position too large for the core")
        self.nflags = 0
        self.nfound = 0
        self.total = 52 * decks
        for i in range(ncols):
            column = columns[i]
            if len(column) >= MAXH - 1:
                raise ValueError("column too tall for the core")
            self.h[i] = len(column)
            for j in range(len(column)):
                self.cols[i][j] = column[j]
                if column[j] & FLAG:
                    self.nflags += 1
            self.fd[i] = face_down[i]
        for s in range(4):
            heights = sorted(foundations[s])
            if decks == 1:
                self.found[s][0] = heights[0]
                self.found[s][1] = 13
                self.nfound += heights[0]
            else:
                self.found[s][0] = heights[0]
                self.found[s][1] = heights[1]
                self.nfound += heights[0] + heights[1]
        self.stock_n = len(stock)
        for i in range(self.stock_n):
            self.stock[i] = stock[i]
        self.stock_pos = 0
        self.rep = reprieve
        self.frees = 0
        self.max_free = -1
        self._rehash()
        buckets = 1
        while buckets * 2 * BUCKET * 16 <= table_bytes:
            buckets *= 2
        self.max_mask = <uint64_t>(buckets - 1)
        # start small and double in place up to the full size: only the pages
        # in use are ever touched, so short searches fault in little memory
        self.mask = min(self.max_mask, <uint64_t>(START_BUCKETS - 1))
        self.filled = 0
        # anonymous memory comes zeroed and is only backed once touched; no
        # MADV_HUGEPAGE: on a busy machine its fault-time compaction stalled
        # searches for seconds
        self.table_len = buckets * BUCKET * 2 * sizeof(uint64_t)
        mem = _take_table(self.table_len)
        if mem == MAP_FAILED:
            raise MemoryError()
        self.table = <uint64_t *>mem
        self.frames = <Frame *>malloc(MAX_DEPTH * sizeof(Frame))
        self.moves_cap = 65536
        self.moves = <int32_t *>malloc(self.moves_cap * sizeof(int32_t))
        # the planner's undo bytes follow the DFS's
        self.undo = <uint8_t *>malloc((MAX_DEPTH + PLAN_MAX) * MAXH)
        self.pbuf = <int32_t *>malloc(MAX_PLANS * PLAN_MAX * sizeof(int32_t))
        self.tail = <uint8_t *>malloc(4 * MAX_DEPTH)
        if (not self.table or not self.frames or not self.moves or not self.undo
                or not self.pbuf or not self.tail):
            raise MemoryError()
        memset(self.recent, 0, sizeof(self.recent))
        self.positions = 0
        self.incomplete = False
        self.planner = False
        self.plan_goals = 2
        self.plan_work = 2000
        self.plen = 0
        self.base = 0
        self.staging = False
        self.cands = []
        self.w_found = 64
        self.w_break = 8
        self.w_empty = 16
        self.w_depth = 1
        self.w_king = 0
        self.w_down = 0

    def __dealloc__(self):
        if self.table != NULL:
            _give_table(self.table, self.table_len, (self.mask + 1) * BUCKET * 16)
        free(self.frames)
        free(self.moves)
        free(self.undo)
        free(self.pbuf)
        free(self.tail)

    @property
    def table_bytes(self):
        return (self.max_mask + 1) * BUCKET * 16

    cdef void _grow(self) noexcept nogil:
        """Double the buckets in use, splitting each old bucket by one more hash bit."""
        cdef uint64_t old = self.mask + 1
        cdef uint64_t i
        cdef uint64_t *low
        cdef uint64_t *high
        cdef int j, keep, moved
        for i in range(old):
            low = self.table + i * (BUCKET * 2)
            high = self.table + (i + old) * (BUCKET * 2)
            keep = 0
            moved = 0
            for j in range(BUCKET):
                if low[2 * j + 1] == 0:
                    break
                if low[2 * j] & old:
                    high[2 * moved] = low[2 * j]
                    high[2 * moved + 1] = low[2 * j + 1]
                    moved += 1
                else:
                    low[2 * keep] = low[2 * j]
                    low[2 * keep + 1] = low[2 * j + 1]
                    keep += 1
            for j in range(keep, BUCKET):
                low[2 * j] = 0
                low[2 * j + 1] = 0
        self.mask = (old << 1) - 1

    cdef void _rehash(self) noexcept nogil:
        cdef int i, j, s
        cdef uint64_t a = 0, b = 0
        for i in range(self.ncols):
            self.c1[i] = ZFD1[0][self.fd[i]]
            self.c2[i] = ZFD2[0][self.fd[i]]
            for j in range(self.h[i]):
                self.c1[i] ^= ZC1[0][j][self.cols[i][j]]
                self.c2[i] ^= ZC2[0][j][self.cols[i][j]]
        for s in range(4):
            a ^= ZF1[s][self.found[s][0]][self.found[s][1]]
            b ^= ZF2[s][self.found[s][0]][self.found[s][1]]
        a ^= ZS1[self.stock_pos]
        b ^= ZS2[self.stock_pos]
        a ^= ZR1[self.rep + 1]
        b ^= ZR2[self.rep + 1]
        self.h1 = a
        self.h2 = b

    cdef inline void _keys(self, uint64_t *k1, uint64_t *k2) noexcept nogil:
        """The position's two 64-bit keys.

        While the stock has cards, columns are told apart (each column hash is
        multiplied by its own odd constant).  Once it is empty, the order of the
        columns no longer matters (see docs/SOLVER.md): the key sums the column
        hashes and keeps only whether a reprieve is open, not where.
        """
        cdef uint64_t a = self.h1, b = self.h2
        cdef int c
        if self.stock_pos == self.stock_n:
            a ^= ZR1[self.rep + 1] ^ ZO1[1 if self.rep >= 0 else 0]
            b ^= ZR2[self.rep + 1] ^ ZO2[1 if self.rep >= 0 else 0]
            for c in range(self.ncols):
                a += self.c1[c]
                b += self.c2[c]
        else:
            for c in range(self.ncols):
                a += self.c1[c] * ODD1[c]
                b += self.c2[c] * ODD2[c]
        k1[0] = a
        k2[0] = b

    # -- position table ---------------------------------------------------

    cdef bint _seen_or_add(self) noexcept nogil:
        """True if the position is in the table; otherwise add it (evicting).

        A small direct-mapped cache of recent positions (in L2) answers most
        repeats before the big table costs a memory access.  Both only ever
        hold expanded positions, so either answering "seen" is right.
        """
        cdef uint64_t k1, h2
        self._keys(&k1, &h2)
        return self._seen_or_add_key(k1, h2)

    cdef inline bint _seen_or_add_key(self, uint64_t k1, uint64_t h2) noexcept nogil:
        """``_seen_or_add`` for a position given by its two keys."""
        cdef uint64_t k2 = h2 | 1
        cdef uint64_t *bucket
        cdef uint64_t *near
        cdef int i
        near = self.recent + 2 * ((h2 >> 20) & (RECENT - 1))
        if near[1] == k2 and near[0] == k1:
            return True
        near[0] = k1
        near[1] = k2
        bucket = self.table + (k1 & self.mask) * (BUCKET * 2)
        for i in range(BUCKET):
            if bucket[2 * i + 1] == k2 and bucket[2 * i] == k1:
                return True
            if bucket[2 * i + 1] == 0:
                bucket[2 * i] = k1
                bucket[2 * i + 1] = k2
                self.filled += 1
                if self.mask < self.max_mask and self.filled * 2 > <long long>(
                        (self.mask + 1) * BUCKET):
                    self._grow()
                return False
        i = <int>((h2 >> 40) & (BUCKET - 1))
        bucket[2 * i] = k1
        bucket[2 * i + 1] = k2
        return False

    # -- rules --------------------------------------------------------------

    cdef inline void _set_fd(self, int a, int size) noexcept nogil:
        cdef int old = self.fd[a]
        cdef int new
        if old >= size:
            new = size - 1 if size > 0 else 0
            if new != old:
                self.c1[a] ^= ZFD1[0][old] ^ ZFD1[0][new]
                self.c2[a] ^= ZFD2[0][old] ^ ZFD2[0][new]
                self.fd[a] = new

    cdef inline void _set_rep(self, int rep) noexcept nogil:
        self.h1 ^= ZR1[self.rep + 1] ^ ZR1[rep + 1]
        self.h2 ^= ZR2[self.rep + 1] ^ ZR2[rep + 1]
        self.rep = rep

    cdef void _apply(self, int32_t m, Frame *f, int32_t undo_at) noexcept nogil:
        cdef int kind = move_kind(m)
        cdef int a = move_source(m)
        cdef int b = move_target(m)
        cdef int k = move_count(m)
        cdef int split, j, idx, card, below, s, r, hb, n, i
        cdef uint8_t byte, nb
        f.h1 = self.h1
        f.h2 = self.h2
        f.ca1 = self.c1[a]
        f.ca2 = self.c2[a]
        f.cb1 = self.c1[b]
        f.cb2 = self.c2[b]
        f.rep = self.rep
        f.nflags = self.nflags
        f.frees = self.frees
        f.undo = undo_at
        f.move = m
        if kind == K_COLUMN:
            f.fd = self.fd[a]
            split = self.h[a] - k
            hb = self.h[b]
            for j in range(k):
                byte = self.cols[a][split + j]
                self.undo[undo_at + j] = byte
                self.c1[a] ^= ZC1[0][split + j][byte]
                self.c2[a] ^= ZC2[0][split + j][byte]
                card = byte & CARD
                idx = hb + j
                nb = card
                if self.rep >= 0:
                    if byte & FLAG:
                        self.nflags -= 1
                    if idx == 0:
                        if RANK[card] != 13:
                            nb = card | FLAG
                    elif not CANGO[card][self.cols[b][idx - 1] & CARD]:
                        nb = card | FLAG
                    if nb & FLAG:
                        self.nflags += 1
                self.cols[b][idx] = nb
                self.c1[b] ^= ZC1[0][idx][nb]
                self.c2[b] ^= ZC2[0][idx][nb]
            self.h[a] = split
            self.h[b] = hb + k
            self._set_fd(a, split)
            if self.rep >= 0:
                if m & FREE_BIT:
                    self.frees += 1
                if b == self.rep:
                    self._set_rep(-1)
                    self.frees = 0
            elif split == 0 and hb > 0 and self.rule != RULE_NONE:
                self._set_rep(a)
        elif kind == K_FOUND:
            f.fd = self.fd[a]
            idx = self.h[a] - 1
            byte = self.cols[a][idx]
            f.card = byte
            card = byte & CARD
            s = SUIT[card]
            r = RANK[card]
            f.f0 = self.found[s][0]
            f.f1 = self.found[s][1]
            self.h1 ^= ZF1[s][f.f0][f.f1]
            self.h2 ^= ZF2[s][f.f0][f.f1]
            self.c1[a] ^= ZC1[0][idx][byte]
            self.c2[a] ^= ZC2[0][idx][byte]
            if self.found[s][0] == r - 1:
                self.found[s][0] = r
                if self.found[s][0] > self.found[s][1]:
                    self.found[s][0] = self.found[s][1]
                    self.found[s][1] = r
            else:
                self.found[s][1] = r
            self.h1 ^= ZF1[s][self.found[s][0]][self.found[s][1]]
            self.h2 ^= ZF2[s][self.found[s][0]][self.found[s][1]]
            self.nfound += 1
            if byte & FLAG:
                self.nflags -= 1
            self.h[a] = idx
            self._set_fd(a, idx)
            if self.rep < 0 and idx == 0 and self.rule != RULE_NONE:
                self._set_rep(a)
        elif kind == K_DEAL:
            n = self.stock_n - self.stock_pos
            if n > self.ncols:
                n = self.ncols
            f.card = n
            for i in range(n):
                byte = self.stock[self.stock_pos + i]
                idx = self.h[i]
                self.cols[i][idx] = byte
                self.c1[i] ^= ZC1[0][idx][byte]
                self.c2[i] ^= ZC2[0][idx][byte]
                self.h[i] = idx + 1
            self.h1 ^= ZS1[self.stock_pos] ^ ZS1[self.stock_pos + n]
            self.h2 ^= ZS2[self.stock_pos] ^ ZS2[self.stock_pos + n]
            self.stock_pos += n
        else:
            self._set_rep(-1)
            self.frees = 0

    cdef void _undo(self, Frame *f) noexcept nogil:
        cdef int32_t m = f.move
        cdef int kind = move_kind(m)
        cdef int a = move_source(m)
        cdef int b = move_target(m)
        cdef int k = move_count(m)
        cdef int j, split, s, i, n
        if kind == K_COLUMN:
            self.h[b] -= k
            split = self.h[a]
            for j in range(k):
                self.cols[a][split + j] = self.undo[f.undo + j]
            self.h[a] = split + k
            self.fd[a] = f.fd
            self.c1[a] = f.ca1
            self.c2[a] = f.ca2
            self.c1[b] = f.cb1
            self.c2[b] = f.cb2
        elif kind == K_FOUND:
            s = SUIT[f.card & CARD]
            self.found[s][0] = f.f0
            self.found[s][1] = f.f1
            self.cols[a][self.h[a]] = f.card
            self.h[a] += 1
            self.fd[a] = f.fd
            self.c1[a] = f.ca1
            self.c2[a] = f.ca2
            self.nfound -= 1
        elif kind == K_DEAL:
            n = f.card
            self.stock_pos -= n
            for i in range(n):
                self.h[i] -= 1
                self.c1[i] ^= ZC1[0][self.h[i]][self.cols[i][self.h[i]]]
                self.c2[i] ^= ZC2[0][self.h[i]][self.cols[i][self.h[i]]]
        self.rep = f.rep
        self.nflags = f.nflags
        self.frees = f.frees
        self.h1 = f.h1
        self.h2 = f.h2

    cdef int _run(self, int a) noexcept nogil:
        """Length of the face-up run on top of column ``a``."""
        cdef int size = self.h[a]
        cdef int low = self.fd[a]
        cdef int i = size - 1
        if size == 0:
            return 0
        while i > low and CANGO[self.cols[a][i] & CARD][self.cols[a][i - 1] & CARD]:
            i -= 1
        return size - i

    cdef int _safe_move(self) noexcept nogil:
        """A safe foundation move (see safe.py), as a column number, or -1."""
        cdef int a, card, r, s, low, t
        cdef bint ok
        if self.rule == RULE_STRICT or self.rep >= 0:
            return -1
        for a in range(self.ncols):
            if self.h[a] == 0:
                continue
            card = self.cols[a][self.h[a] - 1] & CARD
            r = RANK[card]
            s = SUIT[card]
            if self.found[s][0] < r - 1:
                continue
            ok = True
            for t in range(4):
                if RED[t * 13] != RED[card] and self.found[t][0] < r - 1:
                    ok = False
            if not ok:
                continue
            if self.rule == RULE_FREE and (r == 13 or self.h[a] == 1):
                continue
            return a
        return -1

    cdef int _dig_level(self, int a, int i) noexcept nogil:
        """How useful lifting column ``a`` from index ``i`` looks (move order only)."""
        cdef int under, s, r, b
        if i == 0:
            return 0
        under = self.cols[a][i - 1] & CARD
        s = SUIT[under]
        r = RANK[under]
        if self.found[s][0] == r - 1 or self.found[s][1] == r - 1:
            return 2
        for b in range(self.ncols):
            if b != a and self.h[b] and CANGO[self.cols[b][self.h[b] - 1] & CARD][under]:
                return 1
        return 0

    # -- the reprieve planner ----------------------------------------------
    #
    # With ``planner`` set, a position inside a reprieve does not list single
    # free moves.  Its children are *plans*: whole reprieves, each a concrete
    # sequence of primitive moves that ends with the close (``S`` or a
    # King-led run into the reprieve column).  Plans come from goals
    # (notes/reprieve.md): dig out a card and send it to its foundation, dig
    # out a King and close with it, or empty a short column.  Digging lifts the
    # cards above the goal run by run, each onto a legal parent when one is
    # free and onto a scratch pile otherwise; settling then moves every
    # misplaced group onto a parent.  Up to ``plan_goals`` goals are chained, and
    # every settled point reached becomes a plan.  The moves are applied here
    # with the same _apply as the search, so a plan is a legal line by
    # construction; the engine replays every reported win.  The planner does
    # not list every outcome, so a pass that uses it proves wins only.

    cdef inline bint _foundable(self, int card) noexcept nogil:
        cdef int s = SUIT[card], r = RANK[card]
        return self.found[s][0] == r - 1 or self.found[s][1] == r - 1

    cdef inline void _papply(self, int32_t m) noexcept nogil:
        self._apply(m, &self.pframes[self.plen], (MAX_DEPTH + self.plen) * MAXH)
        self.pmoves[self.plen] = m
        self.plen += 1
        self.pwork += 1

    cdef void _punwind(self, int mark) noexcept nogil:
        while self.plen > mark:
            self.plen -= 1
            self._undo(&self.pframes[self.plen])

    cdef int _parent_column(self, int card, int a) noexcept nogil:
        """A column other than ``a`` whose top card takes ``card``; settled tops first."""
        cdef int b, top, best = -1
        for b in range(self.ncols):
            if b == a or self.h[b] == 0:
                continue
            top = self.cols[b][self.h[b] - 1]
            if CANGO[card][top & CARD]:
                if not top & FLAG:
                    return b
                if best < 0:
                    best = b
        return best

    cdef int _empty_column(self) noexcept nogil:
        """An empty column other than the reprieve column, or -1."""
        cdef int b
        for b in range(self.ncols):
            if self.h[b] == 0 and b != self.rep:
                return b
        return -1

    cdef int _scratch(self, int a) noexcept nogil:
        """Where a group from ``a`` with no parent waits: a pile of such groups first."""
        cdef int b, best = -1, tallest = -1
        for b in range(self.ncols):
            if b == a or self.h[b] == 0:
                continue
            if self.cols[b][self.h[b] - 1] & FLAG:
                return b
            if self.h[b] > tallest:
                tallest = self.h[b]
                best = b
        return best

    cdef bint _lift(self, int a, int keep) noexcept nogil:
        """Take the cards above the lowest ``keep`` of column ``a`` off it."""
        cdef int run, k, base, b
        while self.h[a] > keep:
            if self.plen >= PLAN_MAX - 2:
                return False
            if self._foundable(self.cols[a][self.h[a] - 1] & CARD):
                self._papply(pack(K_FOUND, a, 1, 0))
                continue
            run = self._run(a)
            k = self.h[a] - keep
            if k > run:
                k = run
            base = self.cols[a][self.h[a] - k] & CARD
            b = self._parent_column(base, a)
            if b >= 0:
                self._papply(pack(K_COLUMN, a, k, b))
                continue
            if RANK[base] == 13 and self.h[a] > k:
                b = self._empty_column()
                if b >= 0:
                    self._papply(pack(K_COLUMN, a, k, b))
                    continue
            if self.rule == RULE_STRICT and k < run:
                return False  # a strict free move may not split a run
            b = self._scratch(a)
            if b < 0:
                return False
            self._papply(pack(K_COLUMN, a, k, b) | FREE_BIT)
        return True

    cdef void _settle(self) noexcept nogil:
        """Move misplaced (flagged) groups onto parents, or up, while that helps."""
        cdef bint changed = True
        cdef int b, t, top, e
        while changed and self.nflags > 0 and self.plen < PLAN_MAX - 2:
            changed = False
            for b in range(self.ncols):
                if self.h[b] == 0 or self.plen >= PLAN_MAX - 2:
                    continue
                top = self.cols[b][self.h[b] - 1]
                if top & FLAG and self._foundable(top & CARD):
                    self._papply(pack(K_FOUND, b, 1, 0))
                    changed = True
                    continue
                t = self.h[b] - 1
                while t >= 0 and not self.cols[b][t] & FLAG:
                    t -= 1
                if t < 0 or self.h[b] - t > self._run(b):
                    continue
                e = self._parent_column(self.cols[b][t] & CARD, b)
                if e < 0 and RANK[self.cols[b][t] & CARD] == 13:
                    e = self._empty_column()
                if e >= 0:
                    self._papply(pack(K_COLUMN, b, self.h[b] - t, e))
                    changed = True

    cdef void _keep_plan(self, int32_t close) noexcept nogil:
        """Record the current line plus ``close`` as a plan, unless its outcome is known."""
        cdef uint64_t k1, k2
        cdef int i, n
        if self.nplans >= MAX_PLANS or self.plen >= PLAN_MAX:
            return
        self._papply(close)
        self._keys(&k1, &k2)
        n = self.plen
        for i in range(self.nplans):
            if self.pkey1[i] == k1 and self.pkey2[i] == k2:
                self._punwind(n - 1)
                return
        i = self.nplans
        self.pkey1[i] = k1
        self.pkey2[i] = k2
        self.plens[i] = n
        self.pscore[i] = self.nfound - self.pfound0
        memcpy(self.pbuf + i * PLAN_MAX, self.pmoves, n * sizeof(int32_t))
        self.nplans += 1
        self._punwind(n - 1)

    cdef void _emit(self) noexcept nogil:
        """Keep every close allowed now: ``S`` when settled, and each King-led run
        (not a whole column) that holds every unsettled card, built into the
        reprieve column."""
        cdef int a, k, j, size, run, flags
        if self.nflags == 0:
            self._keep_plan(pack(K_STOP, 0, 0, 0))
        for a in range(self.ncols):
            size = self.h[a]
            if a == self.rep or size == 0:
                continue
            run = self._run(a)
            flags = 0
            for k in range(1, run + 1):
                if self.cols[a][size - k] & FLAG:
                    flags += 1
                if RANK[self.cols[a][size - k] & CARD] == 13:
                    if k < size and flags == self.nflags:
                        self._keep_plan(pack(K_COLUMN, a, k, self.rep))
                    break

    cdef bint _visited(self) noexcept nogil:
        cdef uint64_t k1, k2
        cdef int i
        self._keys(&k1, &k2)
        for i in range(self.nvisits):
            if self.vkey1[i] == k1 and self.vkey2[i] == k2:
                return True
        if self.nvisits < PLAN_VISITS:
            self.vkey1[self.nvisits] = k1
            self.vkey2[self.nvisits] = k2
            self.nvisits += 1
        return False

    cdef void _plan(self, int depth) noexcept nogil:
        cdef int mark = self.plen
        cdef int a, i, j, size
        if self.pwork > self.plan_work or self.nplans >= MAX_PLANS or self._visited():
            return
        self._emit()
        if depth >= self.plan_goals:
            return
        # goal 1: a card that can go up, dug out and sent up
        for a in range(self.ncols):
            size = self.h[a]
            for i in range(size - 1, -1, -1):
                if not self._foundable(self.cols[a][i] & CARD):
                    continue
                if self.plen + 2 * (size - i) + 8 >= PLAN_MAX:
                    break
                if (self._lift(a, i + 1) and self.h[a] == i + 1
                        and self._foundable(self.cols[a][i] & CARD)):
                    self._papply(pack(K_FOUND, a, 1, 0))
                    self._settle()
                    self._plan(depth + 1)
                self._punwind(mark)
                size = self.h[a]
        # goal 2: a buried King dug out with its run, to close the reprieve with
        for a in range(self.ncols):
            size = self.h[a]
            for i in range(size - self._run(a) - 1, 0, -1):
                if RANK[self.cols[a][i] & CARD] != 13:
                    continue
                j = i
                while j >= self.fd[a] and j + 1 < size and CANGO[self.cols[a][j + 1] & CARD][self.cols[a][j] & CARD]:
                    j += 1
                if self.plen + 2 * (size - j) + 8 >= PLAN_MAX:
                    break
                if self._lift(a, j + 1):
                    self._settle()
                    self._plan(depth + 1)
                self._punwind(mark)
        # goal 3: a short column emptied (its cards rehomed)
        for a in range(self.ncols):
            size = self.h[a]
            if (a == self.rep or size == 0 or size > EMPTY_MAX
                    or RANK[self.cols[a][0] & CARD] == 13):
                continue
            if self.plen + 2 * size + 8 >= PLAN_MAX:
                continue
            if self._lift(a, 0) and self.h[a] == 0:
                self._settle()
                self._plan(depth + 1)
            self._punwind(mark)

    cdef int _plans(self, int32_t at) noexcept nogil:
        """Write this reprieve's plans at ``at``, best first; returns the entries used."""
        cdef int order[MAX_PLANS]
        cdef int i, j, x, n = 0
        cdef int32_t *out = self.moves + at
        self.plen = 0
        self.pwork = 0
        self.nplans = 0
        self.nvisits = 0
        self.pfound0 = self.nfound
        if self.nflags > 0:
            self._settle()
        self._plan(0)
        self._punwind(0)
        self.incomplete = True  # the plans are a selection: this pass proves wins only
        # most cards sent up first, then the shorter plan
        for i in range(self.nplans):
            x = i
            j = i
            while j > 0 and (self.pscore[order[j - 1]] < self.pscore[x] or (
                    self.pscore[order[j - 1]] == self.pscore[x]
                    and self.plens[order[j - 1]] > self.plens[x])):
                order[j] = order[j - 1]
                j -= 1
            order[j] = x
        for i in range(self.nplans):
            x = order[i]
            out[n] = PLAN_BIT | self.plens[x]
            memcpy(out + n + 1, self.pbuf + x * PLAN_MAX, self.plens[x] * sizeof(int32_t))
            n += self.plens[x] + 1
        return n

    cdef int _generate(self, int32_t at, bint raw) noexcept nogil:
        """Write this node's moves at ``at``; returns how many (ordered).

        ``raw`` lists every legal move, as the engine does: no planner, no
        cap on free moves, no safe auto-move (reduction 4) and no whole
        King-led column into another empty column (reduction 5); the DFS
        never asks for it (see ``legal``).
        """
        cdef int n = 0, a, b, k, run, size, i, card, top, s, r, flags, j, level
        cdef int ncols = self.ncols
        cdef int runs[MAXC]
        cdef int32_t later[MAXC * MAXC]
        cdef int first, kept
        cdef int32_t m
        cdef int32_t *out = self.moves + at
        cdef bint free_moves = self.rep >= 0
        cdef bint stock_left = self.stock_pos < self.stock_n
        if not raw:
            if self.planner and self.rep >= 0:
                return self._plans(at)
            a = self._safe_move()
            if a >= 0:
                out[0] = pack(K_FOUND, a, 1, 0)
                return 1
        # foundation moves
        for a in range(ncols):
            if self.h[a]:
                card = self.cols[a][self.h[a] - 1] & CARD
                s = SUIT[card]
                r = RANK[card]
                if self.found[s][0] == r - 1 or self.found[s][1] == r - 1:
                    out[n] = pack(K_FOUND, a, 1, 0)
                    n += 1
        # builds
        first = n
        for a in range(ncols):
            runs[a] = self._run(a)
        for a in range(ncols):
            size = self.h[a]
            if size == 0:
                continue
            run = runs[a]
            top = RANK[self.cols[a][size - 1] & CARD]
            for b in range(ncols):
                if b == a:
                    continue
                if self.h[b]:
                    k = RANK[self.cols[b][self.h[b] - 1] & CARD] - top
                    if 1 <= k <= run and CANGO[self.cols[a][size - k] & CARD][
                            self.cols[b][self.h[b] - 1] & CARD]:
                        out[n] = pack(K_COLUMN, a, k, b)
                        n += 1
                else:
                    k = 13 - top + 1
                    if k < 1 or k > run:
                        continue
                    if b == self.rep:
                        flags = 0
                        for j in range(size - k, size):
                            if self.cols[a][j] & FLAG:
                                flags += 1
                        if flags != self.nflags:
                            continue
                    elif k == size and not stock_left and not raw:
                        # a whole King-led column into another empty column only
                        # permutes the columns; with no stock left that changes nothing
                        continue
                    out[n] = pack(K_COLUMN, a, k, b)
                    n += 1
        # builds that free something (empty a column, turn a card up, or lift
        # a run off a card it does not belong on) before mere re-parenting
        kept = 0
        for j in range(first, n):
            m = out[j]
            a = move_source(m)
            i = self.h[a] - move_count(m)
            if (i == 0 or i <= self.fd[a]
                    or not CANGO[self.cols[a][i] & CARD][self.cols[a][i - 1] & CARD]):
                out[first + kept] = m
                kept += 1
            else:
                later[j - first - kept] = m
        for j in range(n - first - kept):
            out[first + kept + j] = later[j]
        if free_moves and self.nflags == 0:
            out[n] = pack(K_STOP, 0, 0, 0)
            n += 1
        if free_moves and self.max_free >= 0 and self.frees >= self.max_free and not raw:
            free_moves = False
            self.incomplete = True  # a capped pass can prove wins only
        if free_moves:
            # digging first: groups whose removal uncovers a card that can go
            # up (level 2) or that some top card could be built on (level 1)
            for level in range(2, -1, -1):
                for a in range(ncols):
                    size = self.h[a]
                    run = runs[a]
                    for i in range(size - 1, -1, -1):
                        k = size - i
                        card = self.cols[a][i] & CARD
                        if self.rule == RULE_STRICT:
                            if i < self.fd[a]:
                                break
                            if i - 1 >= self.fd[a] and CANGO[card][self.cols[a][i - 1] & CARD]:
                                continue
                        if self._dig_level(a, i) != level:
                            continue
                        for b in range(ncols):
                            if b == a or self.h[b] == 0:
                                continue
                            if k <= run and CANGO[card][self.cols[b][self.h[b] - 1] & CARD]:
                                continue  # already a build
                            out[n] = pack(K_COLUMN, a, k, b) | FREE_BIT
                            n += 1
        if self.rep < 0 and stock_left and (raw or not self.staging):
            out[n] = pack(K_DEAL, 0, 0, 0)
            n += 1
        return n

    cdef int _room(self, int32_t at) noexcept nogil:
        """Make room for one node's moves at ``at``: 1, or 0 when the cap is reached.

        -1 when memory runs out (the caller raises MemoryError).
        """
        cdef int32_t need = at + ROOM
        cdef int32_t cap = self.moves_cap
        cdef int32_t *grown
        if need <= cap:
            return True
        while cap < need:
            cap *= 2
        if cap > MAX_MOVES:
            return False
        grown = <int32_t *>realloc(self.moves, cap * sizeof(int32_t))
        if grown == NULL:
            return -1
        self.moves = grown
        self.moves_cap = cap
        return True

    def search(self, long long max_positions, double deadline, progress, double began):
        """Run the DFS.  Returns ("won", moves) | ("lost", None) | ("unknown", None).

        ``moves`` are (kind, source, count, target) tuples with 0-based columns.
        ``max_positions`` < 0 means no limit; ``deadline`` < 0 means none.
        """
        if self.nfound == self.total:
            return "won", []
        self.positions = 0
        return self._search(0, max_positions, deadline, progress, began)

    def legal(self, bint pruned=False):
        """The moves of the current position, as (kind, source, count, target), columns from 0.

        By default every legal move, exactly as ``Position.legal_moves()``
        lists them (the test compares the two through ``compiled.decode_move``).
        With ``pruned``, the children the complete search's DFS expands, in
        its order: the same list less reductions 4 and 5 of docs/SOLVER.md
        (only the first safe auto-move when there is one; no whole King-led
        column into another empty column once the stock is empty).  The
        planner, the free-move cap and the staged search's "no deal" are
        left out of both.  For tests and inspection.
        """
        cdef int n, i
        cdef bint planner = self.planner, staging = self.staging, incomplete = self.incomplete
        cdef int max_free = self.max_free
        if self._room(0) != 1:
            raise MemoryError()
        self.planner = False
        self.staging = False
        self.max_free = -1
        try:
            n = self._generate(0, not pruned)
            return [unpack(self.moves[i]) for i in range(n)]
        finally:
            self.planner = planner
            self.staging = staging
            self.max_free = max_free
            self.incomplete = incomplete

    def plans(self):
        """The planner's plans for the current position (inside a reprieve), best first.

        Each plan is a list of (kind, source, count, target) moves, columns
        from 0, ending with the close.  For tests and inspection.
        """
        cdef int n, i = 0, length
        cdef int32_t m
        cdef list out = []
        if self.rep < 0:
            return out
        room = self._room(0)
        if room < 0:
            raise MemoryError()
        if room == 0:
            return out
        n = self._plans(0)
        while i < n:
            length = plan_length(self.moves[i])
            plan = []
            for m in self.moves[i + 1:i + 1 + length]:
                plan.append(unpack(m))
            out.append(plan)
            i += length + 1
        return out

    # -- staged search ------------------------------------------------------
    #
    # A deal splits the game into stages.  ``stage`` searches one stage from
    # the current position without dealing and keeps the ``width`` best
    # positions in which the next deal could be made (see _score); the driver
    # (compiled.staged) deals in each and goes on with the best of them.  It
    # is a selection, so it proves wins only.

    def score(self):
        """The stage score of the current position (the fair player mirrors it in Python)."""
        return self._score()

    def key(self):
        """The current position's two 64-bit keys, as the position table keeps them."""
        cdef uint64_t k1, k2
        self._keys(&k1, &k2)
        return k1, k2

    def forbid(self, uint64_t k1, uint64_t k2):
        """Count the position with these keys (from ``key``) as searched already.

        No later search enters it: the fair player keeps its plans off the
        positions a game has already been through.
        """
        self._seen_or_add_key(k1, k2)

    def goto(self, bytes moves):
        """Play moves from the start position (undone by ``back``).

        ``moves`` are packed moves, four bytes each, big-endian (as ``stage``
        gives them).
        """
        cdef const uint8_t *at = moves
        cdef int i, n = len(moves) // 4
        cdef int32_t m
        self.back()
        if n >= MAX_DEPTH:
            raise ValueError("line too long for the core")
        for i in range(n):
            m = (at[4 * i] << 24) | (at[4 * i + 1] << 16) | (at[4 * i + 2] << 8) | at[4 * i + 3]
            self.frames[i].start = 0
            self.frames[i].end = 0
            self.frames[i].next = 0
            self._apply(m, &self.frames[i], i * MAXH)
        self.base = n

    def state(self):
        """The current position: (columns, face-down counts, foundations, cards dealt, reprieve).

        Columns hold card bytes, bottom first (FLAG on an unsettled moved
        card); foundations are each suit's two heights, lower first (13 for
        the missing second of one deck); the reprieve column counts from 0,
        -1 when none is open.
        """
        cdef int a, j, s
        return (
            [[self.cols[a][j] for j in range(self.h[a])] for a in range(self.ncols)],
            [self.fd[a] for a in range(self.ncols)],
            [(self.found[s][0], self.found[s][1]) for s in range(4)],
            self.stock_pos,
            self.rep,
        )

    def back(self):
        """Return to the start position."""
        self._unwind(self.base - 1, 0)
        self.base = 0

    @property
    def stock_left(self):
        return self.stock_n - self.stock_pos

    def stage(self, long long max_positions, double deadline, int width):
        """Search the current stage: ("won", moves, []) or (verdict, None, candidates).

        Here "lost" only says that the stage ran out of positions to expand
        (or its start was expanded before); a stage never proves a loss, and
        ``compiled.staged`` only looks for "won".

        ``candidates`` are (score, moves) of positions where a deal is allowed,
        best first, at most ``width``; ``moves`` lead there from the position
        ``goto`` reached, packed four bytes each, big-endian (so bytes order
        is the order of the move numbers).
        """
        self.staging = True
        self.width = width
        self.cands = []
        self.ncands = 0
        self.threshold = -1 << 60
        try:
            verdict, path = self._search(self.base, max_positions, deadline, None, 0.0)
        finally:
            self.staging = False
        self.cands.sort(reverse=True)
        return verdict, path, self.cands[:width]

    cdef void _consider(self, int top) noexcept nogil:
        """Keep the current position as a stage candidate if it scores high enough."""
        cdef long long score
        if self.rep >= 0 or self.stock_pos == self.stock_n:
            return
        score = self._score()
        if self.ncands >= self.width and score <= self.threshold:
            return
        self._keep(score, top + 1 - self.base)

    cdef void _keep(self, long long score, int n) noexcept with gil:
        """Add a stage candidate: the moves of frames ``base`` .. ``base + n - 1``."""
        cdef int i
        cdef uint32_t m
        for i in range(n):
            m = <uint32_t>self.frames[self.base + i].move
            self.tail[4 * i] = m >> 24
            self.tail[4 * i + 1] = (m >> 16) & 255
            self.tail[4 * i + 2] = (m >> 8) & 255
            self.tail[4 * i + 3] = m & 255
        self.cands.append((score, (<char *>self.tail)[:4 * n]))
        if len(self.cands) >= 2 * self.width:
            self.cands = sorted(self.cands, reverse=True)[:self.width]
            self.threshold = self.cands[len(self.cands) - 1][0]
        self.ncands = len(self.cands)

    cdef long long _score(self) noexcept nogil:
        """How promising a position is to deal in (move order of the staged search only).

        Cards up count most; cards lying off their parent (breaks) and the
        depth of the shallowest copy of each card the foundations need next
        count against; empty columns count for.  The fair player may also
        count face-up Kings lying on other cards (``w_king``) and face-down
        cards (``w_down``) against; both weigh 0 unless set.
        """
        cdef long long score = self.w_found * self.nfound
        cdef int a, j, s, want, depth, best, breaks = 0, empty = 0, copy, kings = 0, downs = 0
        cdef int deepest[52]
        for j in range(52):
            deepest[j] = 1000
        for a in range(self.ncols):
            if self.h[a] == 0:
                empty += 1
                continue
            downs += self.fd[a]
            for j in range(self.h[a]):
                copy = self.cols[a][j] & CARD
                depth = self.h[a] - 1 - j
                if depth < deepest[copy]:
                    deepest[copy] = depth
                if j > 0 and (j <= self.fd[a] or not CANGO[copy][self.cols[a][j - 1] & CARD]):
                    breaks += 1
                    if RANK[copy] == 13 and j >= self.fd[a]:
                        kings += 1
        score -= self.w_break * breaks + self.w_king * kings + self.w_down * downs
        for s in range(4):
            for j in range(2 if self.decks == 2 else 1):
                want = self.found[s][j]
                if want < 13:
                    best = deepest[s * 13 + want]
                    score -= self.w_depth * (best if best < 1000 else 12)
                if j == 0 and self.found[s][1] == want:
                    break
        return score + self.w_empty * empty

    cdef void _prefetch(self, int d) noexcept nogil:
        """Start loading the table lines of the children of frame ``d``'s moves.

        Each child is made and unmade once more here, so that its key is
        known and its bucket (and its slot of the recent cache) is on its way
        to the cache before the DFS probes it.
        """
        cdef Frame tmp
        cdef Frame *f = &self.frames[d]
        cdef int32_t i, m
        cdef uint64_t k1, k2
        for i in range(f.start, f.end):
            m = self.moves[i]
            if m & PLAN_BIT:
                return
            self._apply(m, &tmp, d * MAXH)
            self._keys(&k1, &k2)
            self._undo(&tmp)
            MG_PREFETCH(self.recent + 2 * ((k2 >> 20) & (RECENT - 1)))
            MG_PREFETCH(self.table + (k1 & self.mask) * (BUCKET * 2))

    def _search(self, int base, long long limit, double deadline, object progress,
                double began):
        """Run the DFS from frame ``base`` without the GIL: (verdict, moves or None).

        Other Python threads run meanwhile, each with its own core. Every
        4096 positions the GIL is taken back only to call ``progress`` and,
        in the main thread, to let Ctrl-C through; the deadline is read from
        the clock ``time.monotonic`` reads.
        """
        cdef int code
        self.progress = progress
        self.began = began
        self.error = None
        self.calls_back = progress is not None or threading.current_thread() is threading.main_thread()
        try:
            with nogil:
                code = self._dfs(base, limit, deadline)
        finally:
            self.progress = None
        if self.error is not None:
            error, self.error = self.error, None
            raise error
        if code == DFS_NOMEM:
            raise MemoryError()
        if code == DFS_WON:
            return "won", self._path(self.won_at)
        if code == DFS_UNKNOWN or (code == DFS_DONE and self.incomplete):
            return "unknown", None
        return "lost", None

    cdef bint _call_back(self, double now) noexcept with gil:
        """Report progress and look for a signal; True when the search must stop."""
        try:
            if self.progress is not None:
                self.progress(self.positions, now - self.began)
            PyErr_CheckSignals()
        except BaseException as error:
            self.error = error
            return True
        return False

    cdef int _dfs(self, int base, long long limit, double deadline) noexcept nogil:
        """The DFS itself (see ``_search``): a DFS_* code; a win's depth in ``won_at``."""
        cdef int d = base, top, i, length, room
        cdef Frame *f
        cdef Frame *g
        cdef int32_t m, n, first
        cdef timespec clock
        cdef double now
        if self._seen_or_add():
            return DFS_LOST
        self.frames[base].start = 0
        room = self._room(0)
        if room < 0:
            return DFS_NOMEM
        if room == 0:
            return DFS_UNKNOWN
        n = self._generate(0, False)
        self.frames[base].end = n
        self.frames[base].next = 0
        self._prefetch(base)
        self.positions += 1
        if self.staging:
            self._consider(base - 1)
        while True:
            f = &self.frames[d]
            if f.next == f.end:
                if d == base:
                    return DFS_DONE
                d -= 1
                self._undo(&self.frames[d])
                continue
            m = self.moves[f.next]
            if m & PLAN_BIT:
                # a plan: its moves go into frames d, d+1, ...; the frames after
                # the first have no moves of their own, so backtracking unwinds
                # the whole plan before frame d tries its next entry
                length = plan_length(m)
                first = f.next + 1
                f.next += length + 1
            else:
                length = 1
                first = f.next
                f.next += 1
            if d + length >= MAX_DEPTH:
                self.incomplete = True
                continue
            for i in range(length):
                g = &self.frames[d + i]
                if i:
                    g.start = f.end
                    g.end = f.end
                    g.next = f.end
                self._apply(self.moves[first + i], g, (d + i) * MAXH)
                if self.nfound == self.total:  # a plan may win before its close
                    # the frames keep their moves when undone: _path reads them
                    self.won_at = d + i
                    self._unwind(d + i, base)
                    return DFS_WON
            top = d + length - 1
            if self._seen_or_add():
                self._unwind(top, d)
                continue
            if limit >= 0 and self.positions >= limit:
                self._unwind(top, base)
                return DFS_UNKNOWN
            if (self.positions & 4095) == 0 and (self.calls_back or deadline >= 0):
                clock_gettime(CLOCK_MONOTONIC, &clock)
                now = clock.tv_sec + clock.tv_nsec * 1e-9
                if (self.calls_back and self._call_back(now)) or (deadline >= 0 and now > deadline):
                    self._unwind(top, base)
                    return DFS_UNKNOWN
            if top + 1 >= MAX_DEPTH:
                self.incomplete = True
                self._unwind(top, d)
                continue
            room = self._room(f.end)
            if room < 0:
                self._unwind(top, base)
                return DFS_NOMEM
            if room == 0:
                self.incomplete = True
                self._unwind(top, d)
                continue
            n = f.end
            d = top + 1
            self.frames[d].start = n
            self.frames[d].end = n + self._generate(n, False)
            self.frames[d].next = n
            self.positions += 1
            self._prefetch(d)
            if self.staging:
                self._consider(top)

    cdef void _unwind(self, int top, int d) noexcept nogil:
        """Undo the moves held by frames ``top`` down to ``d``.

        Frames without a move range of their own hold the later moves of a
        plan; every frame from ``d`` to ``top`` holds exactly one applied move.
        """
        while top >= d:
            self._undo(&self.frames[top])
            top -= 1

    cdef list _path(self, int d):
        cdef list out = []
        cdef int i
        cdef int32_t m
        for i in range(d + 1):
            m = self.frames[i].move
            out.append(unpack(m))
        return out


def table_size(long long table_bytes):
    """The bytes of the position table a budget of ``table_bytes`` gets."""
    cdef long long buckets = 1
    while buckets * 2 * BUCKET * 16 <= table_bytes:
        buckets *= 2
    return buckets * BUCKET * 16
