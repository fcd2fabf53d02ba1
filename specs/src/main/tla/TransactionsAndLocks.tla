------------------------ MODULE TransactionsAndLocks ------------------------
(***************************************************************************)
(* Transactions interleaving at statement level under PostgreSQL's row    *)
(* locks, as Frontrun's scheduler explores them (DESIGN section 2,        *)
(* "Blocked threads"; the Java model in LockPredictions, ExecutionRunner, *)
(* TransactionState and ConnectionHandler).                               *)
(*                                                                         *)
(* Each transaction runs a fixed program, then COMMITs; after an error it *)
(* ROLLBACKs, and with AppRollbacks it may ROLLBACK wherever it can act   *)
(* (an exception in the application).                                     *)
(*                                                                         *)
(*  * Start, then wait.  A statement is never forbidden to start.  It     *)
(*    takes its snapshot when it starts; if it needs a row lock another   *)
(*    transaction holds, it then WAITS inside the database, queued for    *)
(*    the lock, until the holder's COMMIT or ROLLBACK (or ROLLBACK TO a   *)
(*    savepoint set before it took the lock) hands the lock to the first  *)
(*    queued transaction.  The statement then completes: under READ      *)
(*    COMMITTED on the newest version; under REPEATABLE READ (and         *)
(*    SERIALIZABLE, whose extra SSI failures are not modelled) it fails   *)
(*    with a serialization failure (40001) if the row's newest version   *)
(*    was committed after its snapshot.  That check also fails a locking  *)
(*    statement at once, without waiting, if the change is already        *)
(*    committed when it starts.                                           *)
(*  * Snapshot points.  REPEATABLE READ: the first statement that reads   *)
(*    data takes the transaction's one snapshot (SAVEPOINT and ROLLBACK   *)
(*    TO do not).  READ COMMITTED: every statement reads the newest       *)
(*    committed data; no failure comes of it.                             *)
(*  * Lock modes.  UPDATE and SELECT ... FOR UPDATE wait; FOR UPDATE      *)
(*    NOWAIT fails at once (55P03) when the row is held by another;       *)
(*    FOR UPDATE SKIP LOCKED then skips the row (takes no lock, never     *)
(*    waits), and locks it when it is free.  SELECT takes no lock.        *)
(*  * Errors.  A failed statement aborts the transaction, and PostgreSQL  *)
(*    releases its locks at once (AbortTransaction), not at the later     *)
(*    ROLLBACK; inside a savepoint only the subtransaction aborts: the    *)
(*    locks taken after the savepoint are released and the application   *)
(*    may ROLLBACK TO the savepoint and go on (RecoverTo).                *)
(*  * Savepoints.  ROLLBACK TO SAVEPOINT releases the locks taken after   *)
(*    the savepoint (not those held before it) and undoes the writes      *)
(*    made after it; the savepoint stays.                                 *)
(*  * Deadlocks.  The wait-for graph has an edge t -> u when t waits for  *)
(*    a lock u holds; Frontrun reports a deadlock as soon as it has a     *)
(*    cycle.  onCycle records, in every state, the transactions on a      *)
(*    cycle (a function of the other variables, so it adds no state; it   *)
(*    is there so that the conformance test reads the spec's answer from *)
(*    TLC's state dump instead of recomputing it).                        *)
(*                                                                         *)
(* Verified against PostgreSQL 15 by hand: an error inside a transaction *)
(* block frees its row locks before the ROLLBACK; inside a savepoint only *)
(* those taken after it; a REPEATABLE READ waiter fails after the holder  *)
(* commits an UPDATE (even one that changes no value), not after a       *)
(* holder that only locked or rolled back; and FOR UPDATE, NOWAIT and     *)
(* SKIP LOCKED on a row changed after the snapshot all fail with 40001    *)
(* at once, even while another transaction holds the newest version.    *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets, TLC

CONSTANTS
    Tx,         \* the transactions (model values)
    Rows,       \* the rows they touch (model values)
    StmtOps,    \* the statement kinds used, a subset of Ops
    MaxLen,     \* the longest program
    Levels,     \* the isolation levels used, a subset of {"RC", "RR"}
    NoTx,       \* a model value: no transaction
    NoRow,      \* a model value: the row of a statement that touches none
    AppRollbacks \* whether the application may ROLLBACK at any boundary (not only after an error)

RowOps == {"SELECT", "FOR_UPDATE", "NOWAIT", "SKIP_LOCKED", "UPDATE"}
SavepointOps == {"SAVEPOINT", "ROLLBACK_TO"}
Ops == RowOps \cup SavepointOps
ASSUME /\ StmtOps \subseteq Ops /\ MaxLen \in Nat /\ Levels \subseteq {"RC", "RR"}
       /\ NoTx \notin Tx /\ NoRow \notin Rows /\ AppRollbacks \in BOOLEAN

\* A program item: a row-level statement, or SAVEPOINT s / ROLLBACK TO SAVEPOINT s (one name).
Item == {[op |-> o, row |-> r] : o \in StmtOps \cap RowOps, r \in Rows}
        \cup {[op |-> o, row |-> NoRow] : o \in StmtOps \cap SavepointOps}

TakesLock(i) == i.op \in {"FOR_UPDATE", "NOWAIT", "SKIP_LOCKED", "UPDATE"}
Writes(i) == i.op = "UPDATE"
ReadsData(i) == i.op \in RowOps

\* At most one SAVEPOINT, and ROLLBACK TO only after it.
WellFormed(p) ==
    /\ Cardinality({k \in DOMAIN p : p[k].op = "SAVEPOINT"}) <= 1
    /\ \A k \in DOMAIN p : p[k].op = "ROLLBACK_TO" => \E j \in 1..(k - 1) : p[j].op = "SAVEPOINT"

\* Every well-formed program of 1..MaxLen items.
AllPrograms == {p \in UNION {[1..n -> Item] : n \in 1..MaxLen} : WellFormed(p)}

\* The programs the transactions may run: every combination by default;
\* scenario configurations substitute one of the definitions further down.
InitPrograms == [Tx -> AllPrograms]

VARIABLES
    prog,       \* prog[t]: t's items (fixed by Init)
    iso,        \* iso[t]: "RC" | "RR" (fixed by Init; "RR" stands for SERIALIZABLE too)
    pc,         \* pc[t]: index of t's current item; Len + 1 = next is COMMIT
    phase,      \* "ready" | "waiting" | "granted" | "aborted" | "committed" | "rolledback"
    held,       \* held[t]: the rows whose lock t holds
    queue,      \* queue[r]: the transactions waiting for r's lock, first in line first
    wrote,      \* wrote[t]: the rows t has updated (kept after its commit)
    sp,         \* sp[t]: its savepoint: whether set, the locks held and rows written then
    snap,       \* snap[t]: RR snapshot: whether taken, the committed writers it sees
    lastWriter, \* lastWriter[r]: whose committed UPDATE made r's newest version, or NoTx
    onCycle     \* the transactions on a wait-for cycle (derived, see above)

vars == <<prog, iso, pc, phase, held, queue, wrote, sp, snap, lastWriter, onCycle>>

NoSavepoint == [set |-> FALSE, held |-> {}, wrote |-> {}]
NoSnapshot == [taken |-> FALSE, sees |-> {}]

Ended == {"committed", "rolledback"}
Active == {t \in Tx : phase[t] \notin Ended}
HasNext(t) == pc[t] <= Len(prog[t])
Cur(t) == prog[t][pc[t]]
Holders(r) == {u \in Tx : r \in held[u]}
HeldByOther(t, r) == Holders(r) \ {t} /= {}
CommittedWriters == {u \in Tx : phase[u] = "committed" /\ wrote[u] /= {}}
Range(s) == {s[k] : k \in DOMAIN s}

\* Under snapshot s, the newest committed version of r is one s does not see.
ChangedSince(s, r) == lastWriter[r] /= NoTx /\ lastWriter[r] \notin s.sees

(***************************************************************************)
(* The wait-for graph: t -> u when t waits for a lock u holds.  Reach[t] *)
(* is the set of transactions t waits on, directly or transitively       *)
(* (paths of up to |Tx| edges suffice); t is on a cycle when it reaches  *)
(* itself.                                                                 *)
(***************************************************************************)
WaitRow(t) == Cur(t).row
WaitsFor(t) == IF phase[t] = "waiting" THEN Holders(WaitRow(t)) ELSE {}
Reach ==
    LET W == [t \in Tx |-> WaitsFor(t)]
        N == Cardinality(Tx)
        Paths(t) == LET P[n \in 1..N] == IF n = 1 THEN W[t]
                                        ELSE P[n - 1] \cup UNION {W[u] : u \in P[n - 1]}
                    IN P[N]
    IN [t \in Tx |-> Paths(t)]
CycleOf(R) == {t \in Tx : t \in R[t]}
Cycle == CycleOf(Reach)

\* The scheduler's "no thread can run": every unfinished transaction waits.
NoRunnable == Active /= {} /\ \A t \in Active : phase[t] = "waiting"

(***************************************************************************)
(* The rules a mutant configuration may replace (TransactionsAndLocksMutants.tla). *)
(***************************************************************************)
\* The statements that wait for a held lock (NOWAIT fails, SKIP LOCKED skips).
WaitingOps == {"FOR_UPDATE", "UPDATE"}

\* Under snapshot s, a locking statement of t on row r fails with 40001.
SerializationFailure(t, s, r) == iso[t] = "RR" /\ ChangedSince(s, r)

\* The same check when t's waiting statement has been granted the lock.
FailsAfterWait(t, r) == SerializationFailure(t, snap[t], r)

\* The locks ROLLBACK TO SAVEPOINT releases.
SavepointRelease(t) == held[t] \ sp[t].held

\* The locks released when a statement of t fails.
AbortRelease(t) == IF sp[t].set THEN held[t] \ sp[t].held ELSE held[t]

\* Releasing rows S: each goes to the first transaction queued for it, whose
\* waiting statement is then "granted" (it completes at its next step).
Heirs(S) == {r \in S : queue[r] /= <<>>}
Granted(S) == {Head(queue[r]) : r \in Heirs(S)}
HeldAfterRelease(t, S) ==
    [u \in Tx |-> IF u = t THEN held[t] \ S
                  ELSE held[u] \cup {r \in Heirs(S) : Head(queue[r]) = u}]
QueueAfterRelease(S) == [r \in Rows |-> IF r \in Heirs(S) THEN Tail(queue[r]) ELSE queue[r]]
PhaseAfterRelease(t, p, S) ==
    [u \in Tx |-> IF u = t THEN p ELSE IF u \in Granted(S) THEN "granted" ELSE phase[u]]

(***************************************************************************)
(* Actions.                                                                *)
(***************************************************************************)
Init ==
    /\ prog \in InitPrograms
    /\ iso \in [Tx -> Levels]
    /\ pc = [t \in Tx |-> 1]
    /\ phase = [t \in Tx |-> "ready"]
    /\ held = [t \in Tx |-> {}]
    /\ queue = [r \in Rows |-> <<>>]
    /\ wrote = [t \in Tx |-> {}]
    /\ sp = [t \in Tx |-> NoSavepoint]
    /\ snap = [t \in Tx |-> NoSnapshot]
    /\ lastWriter = [r \in Rows |-> NoTx]
    /\ onCycle = {}

\* Keeps onCycle equal to the cycle of the new state (the last conjunct of every action).
TrackCycle == onCycle' = Cycle'

\* t gives up rows S and its phase becomes p; the rows go to their first waiters.
Release(t, S, p) ==
    /\ held' = HeldAfterRelease(t, S)
    /\ queue' = QueueAfterRelease(S)
    /\ phase' = PhaseAfterRelease(t, p, S)

\* t's current statement completes, having written rows w.
Advance(t, w) ==
    /\ pc' = [pc EXCEPT ![t] = @ + 1]
    /\ wrote' = [wrote EXCEPT ![t] = @ \cup w]

\* t's current statement fails: the (sub)transaction aborts and its locks go at once.
Fail(t) ==
    /\ Release(t, AbortRelease(t), "aborted")
    /\ wrote' = [wrote EXCEPT ![t] = IF sp[t].set THEN sp[t].wrote ELSE {}]
    /\ UNCHANGED <<pc, sp>>

TakeLock(t, i, s) ==
    LET r == i.row IN
    IF SerializationFailure(t, s, r) THEN Fail(t)
    ELSE IF ~HeldByOther(t, r) THEN
        /\ Advance(t, IF Writes(i) THEN {r} ELSE {})
        /\ held' = [held EXCEPT ![t] = @ \cup {r}]
        /\ UNCHANGED <<phase, queue, sp>>
    ELSE IF i.op = "SKIP_LOCKED" THEN
        /\ Advance(t, {})
        /\ UNCHANGED <<phase, held, queue, sp>>
    ELSE IF i.op \in WaitingOps THEN
        /\ phase' = [phase EXCEPT ![t] = "waiting"]
        /\ queue' = [queue EXCEPT ![r] = Append(@, t)]
        /\ UNCHANGED <<pc, held, wrote, sp>>
    ELSE Fail(t)   \* NOWAIT: 55P03

\* t starts its current item; never forbidden, whoever holds what.
Start(t) ==
    /\ phase[t] = "ready"
    /\ HasNext(t)
    /\ LET i == Cur(t)
           s == IF iso[t] = "RR" /\ ~snap[t].taken /\ ReadsData(i)
                THEN [taken |-> TRUE, sees |-> CommittedWriters]
                ELSE snap[t]
       IN /\ snap' = [snap EXCEPT ![t] = s]
          /\ IF i.op = "SAVEPOINT" THEN
                /\ Advance(t, {})
                /\ sp' = [sp EXCEPT ![t] = [set |-> TRUE, held |-> held[t], wrote |-> wrote[t]]]
                /\ UNCHANGED <<phase, held, queue>>
             ELSE IF i.op = "ROLLBACK_TO" THEN
                /\ Release(t, SavepointRelease(t), "ready")
                /\ pc' = [pc EXCEPT ![t] = @ + 1]
                /\ wrote' = [wrote EXCEPT ![t] = sp[t].wrote]
                /\ UNCHANGED sp
             ELSE IF i.op = "SELECT" THEN
                /\ Advance(t, {})
                /\ UNCHANGED <<phase, held, queue, sp>>
             ELSE TakeLock(t, i, s)
    /\ UNCHANGED <<prog, iso, lastWriter>>
    /\ TrackCycle

\* t's waiting statement was granted its lock: it completes, or fails with 40001.
Complete(t) ==
    /\ phase[t] = "granted"
    /\ LET i == Cur(t) IN
       IF FailsAfterWait(t, i.row) THEN Fail(t)
       ELSE /\ Advance(t, IF Writes(i) THEN {i.row} ELSE {})
            /\ phase' = [phase EXCEPT ![t] = "ready"]
            /\ UNCHANGED <<held, queue, sp>>
    /\ UNCHANGED <<prog, iso, snap, lastWriter>>
    /\ TrackCycle

Commit(t) ==
    /\ phase[t] = "ready"
    /\ ~HasNext(t)
    /\ Release(t, held[t], "committed")
    /\ lastWriter' = [r \in Rows |-> IF r \in wrote[t] THEN t ELSE lastWriter[r]]
    /\ UNCHANGED <<prog, iso, pc, wrote, sp, snap>>
    /\ TrackCycle

\* An exception in the application, or the end of an aborted transaction.
Rollback(t) ==
    /\ phase[t] \in (IF AppRollbacks THEN {"ready", "aborted"} ELSE {"aborted"})
    /\ Release(t, held[t], "rolledback")
    /\ wrote' = [wrote EXCEPT ![t] = {}]
    /\ UNCHANGED <<prog, iso, pc, sp, snap, lastWriter>>
    /\ TrackCycle

\* After a failure inside the savepoint: ROLLBACK TO it, then go on after the failed statement.
RecoverTo(t) ==
    /\ phase[t] = "aborted"
    /\ sp[t].set
    /\ phase' = [phase EXCEPT ![t] = "ready"]
    /\ pc' = [pc EXCEPT ![t] = @ + 1]
    /\ UNCHANGED <<prog, iso, held, queue, wrote, sp, snap, lastWriter>>
    /\ TrackCycle

\* Every transaction ended: the execution is over (stutter, so that TLC's
\* own deadlock check flags exactly the NoRunnable states).
Done == Active = {} /\ UNCHANGED vars

Next == Done \/ \E t \in Tx : Start(t) \/ Complete(t) \/ Commit(t) \/ Rollback(t) \/ RecoverTo(t)
Spec == Init /\ [][Next]_vars

\* Renaming transactions or rows maps a behaviour to a behaviour (used as a
\* SYMMETRY by the configurations whose program set is symmetric too).
Symmetry == Permutations(Tx) \cup Permutations(Rows)
TxSymmetry == Permutations(Tx)

(***************************************************************************)
(* Scenarios for the configurations.                                       *)
(***************************************************************************)
I(o, r) == [op |-> o, row |-> r]
SP == [op |-> "SAVEPOINT", row |-> NoRow]
RT == [op |-> "ROLLBACK_TO", row |-> NoRow]
FirstTx == CHOOSE t \in Tx : TRUE
FirstRow == CHOOSE r \in Rows : TRUE
OtherRow == CHOOSE r \in Rows : r /= FirstRow

\* Two transactions lock the same two rows in opposite orders:
\*   T1: SELECT r1 FOR UPDATE; UPDATE r2.   T2: SELECT r2 FOR UPDATE; UPDATE r1.
OppositeOrder ==
    {[t \in Tx |-> IF t = FirstTx THEN <<I("FOR_UPDATE", FirstRow), I("UPDATE", OtherRow)>>
                   ELSE <<I("FOR_UPDATE", OtherRow), I("UPDATE", FirstRow)>>]}

\* Every transaction UPDATEs two different rows (with three transactions
\* and three rows this includes every two- and three-transaction cycle).
TwoRowUpdates ==
    [Tx -> {<<I("UPDATE", p[1]), I("UPDATE", p[2])>> : p \in {q \in Rows \X Rows : q[1] /= q[2]}}]

\* Every transaction locks the rows it touches in one global order (a plain
\* SELECT may come anywhere): the standard deadlock-avoidance discipline.
RowOrder == CHOOSE f \in [Rows -> 1..Cardinality(Rows)] : \A r1, r2 \in Rows : f[r1] = f[r2] => r1 = r2
LocksInOrder(p) ==
    \A i, j \in DOMAIN p :
        (i < j /\ TakesLock(p[i]) /\ TakesLock(p[j])) => RowOrder[p[i].row] <= RowOrder[p[j].row]
SameOrder == [Tx -> {p \in AllPrograms : LocksInOrder(p)}]

\* Savepoints: a lock before the savepoint, one after it, then (or not)
\* ROLLBACK TO it; the lock after it is taken by UPDATE or NOWAIT, so
\* that a failure inside the savepoint is reachable too.
SavepointPrograms ==
    LET Lock == {I(o, r) : o \in {"UPDATE", "NOWAIT"}, r \in Rows}
    IN {<<I("UPDATE", a), SP, b>> : a \in Rows, b \in Lock}
       \cup {<<I("UPDATE", a), SP, b, RT>> : a \in Rows, b \in Lock}
Savepoints == [Tx -> SavepointPrograms]

\* For the conformance test: every row statement alone; every locking one
\* after a SELECT of the other row (a REPEATABLE READ snapshot taken before
\* the lock, so before any wait); UPDATE then UPDATE or NOWAIT of the other
\* row, in both orders (deadlocks, and failures that free an earlier lock).
ConformancePrograms ==
    LET a == FirstRow
        b == OtherRow
        LockOps == {"FOR_UPDATE", "NOWAIT", "SKIP_LOCKED", "UPDATE"}
    IN {<<I(o, a)>> : o \in RowOps}
       \cup {<<I("SELECT", b), I(o, a)>> : o \in LockOps}
       \cup {<<I("UPDATE", q[1]), I(o, q[2])>> :
                o \in {"UPDATE", "NOWAIT"}, q \in {p \in Rows \X Rows : p[1] /= p[2]}}
Conformance == [Tx -> ConformancePrograms]

(***************************************************************************)
(* Invariants and properties.                                              *)
(***************************************************************************)
TypeOK ==
    /\ DOMAIN prog = Tx
    /\ \A t \in Tx : pc[t] \in 1..(Len(prog[t]) + 1)
    /\ iso \in [Tx -> Levels]
    /\ phase \in [Tx -> {"ready", "waiting", "granted", "aborted", "committed", "rolledback"}]
    /\ held \in [Tx -> SUBSET Rows]
    /\ \A r \in Rows : queue[r] \in Seq(Tx)
    /\ wrote \in [Tx -> SUBSET Rows]
    /\ \A t \in Tx : sp[t].set \in BOOLEAN /\ sp[t].held \subseteq Rows /\ sp[t].wrote \subseteq Rows
    /\ \A t \in Tx : snap[t].taken \in BOOLEAN /\ snap[t].sees \subseteq Tx
    /\ lastWriter \in [Rows -> Tx \cup {NoTx}]

\* No two transactions hold the same row lock.
MutualExclusion == \A r \in Rows : Cardinality(Holders(r)) <= 1

\* A waiting statement never holds the lock it waits for; it is queued for
\* exactly that row, once; every queued transaction waits for that row.
WaiterDoesNotHoldItsLock == \A t \in Tx : phase[t] = "waiting" => WaitRow(t) \notin held[t]
WaitersAreQueued ==
    /\ \A t \in Tx : phase[t] = "waiting" => t \in Range(queue[WaitRow(t)])
    /\ \A r \in Rows : \A k \in DOMAIN queue[r] :
           /\ phase[queue[r][k]] = "waiting" /\ WaitRow(queue[r][k]) = r
           /\ \A j \in DOMAIN queue[r] : queue[r][j] = queue[r][k] => j = k

\* A queued row always has a holder: no waiter is ever forgotten.
QueuedRowsAreHeld == \A r \in Rows : queue[r] /= <<>> => Holders(r) /= {}

\* A waiting transaction waits on exactly one other unfinished one.
WaitsOnUnfinished ==
    \A t \in Tx : phase[t] = "waiting" => Cardinality(WaitsFor(t)) = 1 /\ WaitsFor(t) \subseteq Active

\* NOWAIT fails and SKIP LOCKED skips: neither ever waits.
NowaitAndSkipLockedNeverWait ==
    \A t \in Tx : phase[t] = "waiting" => Cur(t).op \notin {"NOWAIT", "SKIP_LOCKED"}

\* Locks are held only by unfinished transactions.
LocksReleasedAtEnd == \A t \in Tx : phase[t] \in Ended => held[t] = {}

\* A failed statement's (sub)transaction holds no lock taken inside it.
ErrorsReleaseAtOnce ==
    \A t \in Tx : phase[t] = "aborted" => held[t] \subseteq (IF sp[t].set THEN sp[t].held ELSE {})

\* Locks held when the savepoint was set are kept to the end.
SavepointLocksKept == \A t \in Active : sp[t].set => sp[t].held \subseteq held[t]

\* Right after ROLLBACK TO SAVEPOINT, a transaction holds only the locks it held at the savepoint.
RollbackToReleasesLaterLocks ==
    \A t \in Tx : (phase[t] = "ready" /\ pc[t] > 1 /\ prog[t][pc[t] - 1].op = "ROLLBACK_TO")
                    => held[t] \subseteq sp[t].held

\* The serialization-failure rule, as a state property: a REPEATABLE READ
\* transaction never holds (past the wait) the lock of a row whose newest
\* version was committed after its snapshot, so it never overwrites a
\* change it did not see (first updater wins).
NoLockOnAnUnseenChange ==
    \A t \in Active : (iso[t] = "RR" /\ phase[t] /= "granted")
                        => \A r \in held[t] : ~ChangedSince(snap[t], r)

\* A REPEATABLE READ transaction that has locked or read anything has its snapshot.
SnapshotBeforeData ==
    \A t \in Tx : (iso[t] = "RR" /\ \E k \in 1..(pc[t] - 1) : ReadsData(prog[t][k])) => snap[t].taken

\* The deadlock rule: when no unfinished transaction can run, the wait-for
\* graph has a cycle, and every stuck transaction waits (transitively) on a
\* member of it: the reported cycle is real and explains every stuck thread.
NoRunnableNamesACycle ==
    NoRunnable =>
        LET R == Reach
            C == CycleOf(R)
        IN /\ C /= {}
           /\ \A t \in Active : R[t] \cap C /= {}

\* A transaction on a cycle waits; onCycle is the cycle.
CycleMembersWait == \A t \in Cycle : phase[t] = "waiting"
OnCycleIsTheCycle == onCycle = Cycle

\* A statement is never forbidden to start: whatever the locks, a ready
\* transaction with an item left can start it.
StartNeverForbidden == \A t \in Tx : (phase[t] = "ready" /\ HasNext(t)) => ENABLED Start(t)

\* Expected to be VIOLATED with OppositeOrder (the deadlock is reachable) and
\* to hold with SameOrder.
NoDeadlock == ~NoRunnable

\* Expected to be VIOLATED with three transactions: a cycle can run through
\* all of them (non-vacuity of the three-transaction configuration).
NoThreeTransactionCycle == Cardinality(Cycle) < 3

\* A cycle never dissolves: once on a cycle, always on it (until the
\* database's own deadlock detector intervenes, which the model leaves out
\* and Frontrun pre-empts), so reporting it as soon as it appears is sound.
CyclesPersist == [][onCycle \subseteq onCycle']_vars
=============================================================================
