------------------------ MODULE TransactionsAndLocks ------------------------
(***************************************************************************)
(* Transactions interleaving at statement level under a row-lock model    *)
(* (DESIGN section 2, "Blocked threads").                                  *)
(*                                                                         *)
(* Each transaction runs a fixed program of row-level statements, then    *)
(* COMMITs; at any statement boundary where it is not blocked it may      *)
(* instead ROLLBACK (an exception in the application).  UPDATE and        *)
(* SELECT ... FOR UPDATE take the row's lock and keep it until COMMIT or  *)
(* ROLLBACK; a plain SELECT takes no lock (MVCC).  A statement that needs *)
(* a lock another transaction holds is disabled: the scheduler sees the   *)
(* thread blocked and runs another one.                                   *)
(*                                                                         *)
(* Frontrun's deadlock rule: when no unfinished transaction can run, the  *)
(* execution ends as a deadlock finding that names a cycle of the         *)
(* wait-for graph.  The invariants below show that such a cycle always    *)
(* exists then, that every stuck transaction waits on it, and that a      *)
(* cycle never dissolves on its own (so reporting it at once is sound).   *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets, TLC

CONSTANTS
    Tx,         \* the transactions (model values)
    Rows,       \* the rows they touch (model values)
    StmtOps,    \* the statement kinds used, a subset of Ops
    MaxLen      \* the longest program

Ops == {"SELECT", "FOR_UPDATE", "UPDATE"}
ASSUME StmtOps \subseteq Ops /\ MaxLen \in Nat

Stmt == [op : StmtOps, row : Rows]
NeedsLock(s) == s.op \in {"FOR_UPDATE", "UPDATE"}

\* Every program of 1..MaxLen statements.
SeqsOfLen(n) == [1..n -> Stmt]
AllPrograms == UNION {SeqsOfLen(n) : n \in 1..MaxLen}

\* The programs the transactions may run: every combination by default;
\* scenario configurations substitute one of the definitions below.
InitPrograms == [Tx -> AllPrograms]

VARIABLES
    prog,       \* prog[t]: t's statements (fixed by Init)
    pc,         \* pc[t]: index of t's next statement; Len + 1 = next is COMMIT
    status,     \* "active" | "committed" | "rolledback"
    held        \* held[t]: the rows whose lock t holds

vars == <<prog, pc, status, held>>

Active == {t \in Tx : status[t] = "active"}
AtCommit(t) == pc[t] > Len(prog[t])
NextStmt(t) == prog[t][pc[t]]

\* t is blocked: its next statement needs a lock another transaction holds.
Holder(r) == {u \in Tx : r \in held[u]}
BlockedOn(t) ==
    IF t \in Active /\ ~AtCommit(t) /\ NeedsLock(NextStmt(t))
    THEN Holder(NextStmt(t).row) \ {t}
    ELSE {}
Blocked(t) == BlockedOn(t) /= {}

\* The wait-for graph has an edge t -> u for each u \in BlockedOn(t).
\* Reach[t] is the set of transactions t waits on, directly or transitively
\* (paths of up to |Tx| edges suffice); t is on a cycle when it reaches itself.
Reach ==
    LET W == [t \in Tx |-> BlockedOn(t)]
        N == Cardinality(Tx)
        Paths(t) == LET P[n \in 1..N] == IF n = 1 THEN W[t]
                                        ELSE P[n - 1] \cup UNION {W[u] : u \in P[n - 1]}
                    IN P[N]
    IN [t \in Tx |-> Paths(t)]
CycleOf(R) == {t \in Tx : t \in R[t]}
Cycle == CycleOf(Reach)

\* The scheduler's view: nobody unfinished can run.
NoRunnable == Active /= {} /\ \A t \in Active : Blocked(t)
Finished == Active = {}

(***************************************************************************)
(* Actions.                                                                *)
(***************************************************************************)
Init ==
    /\ prog \in InitPrograms
    /\ pc = [t \in Tx |-> 1]
    /\ status = [t \in Tx |-> "active"]
    /\ held = [t \in Tx |-> {}]

Exec(t) ==
    /\ t \in Active
    /\ ~AtCommit(t)
    /\ ~Blocked(t)
    /\ held' = IF NeedsLock(NextStmt(t))
               THEN [held EXCEPT ![t] = @ \cup {NextStmt(t).row}]
               ELSE held
    /\ pc' = [pc EXCEPT ![t] = @ + 1]
    /\ UNCHANGED <<prog, status>>

End(t, outcome) ==
    /\ status' = [status EXCEPT ![t] = outcome]
    /\ held' = [held EXCEPT ![t] = {}]
    /\ UNCHANGED <<prog, pc>>

Commit(t) == t \in Active /\ AtCommit(t) /\ End(t, "committed")

Rollback(t) == t \in Active /\ ~Blocked(t) /\ End(t, "rolledback")

\* Every transaction ended: the execution is over (stutter, so that TLC's
\* own deadlock check flags exactly the NoRunnable states).
Done == Finished /\ UNCHANGED vars

Next == Done \/ \E t \in Tx : Exec(t) \/ Commit(t) \/ Rollback(t)
Spec == Init /\ [][Next]_vars

\* Renaming transactions or rows maps a behaviour to a behaviour (used as a
\* SYMMETRY by the configurations whose program set is symmetric too).
Symmetry == Permutations(Tx) \cup Permutations(Rows)
TxSymmetry == Permutations(Tx)

(***************************************************************************)
(* Scenarios for the configurations.                                       *)
(***************************************************************************)
\* Two transactions lock the same two rows in opposite orders:
\*   T1: SELECT r1 FOR UPDATE; UPDATE r2.   T2: SELECT r2 FOR UPDATE; UPDATE r1.
OppositeOrder ==
    LET t1 == CHOOSE t \in Tx : TRUE
        t2 == CHOOSE t \in Tx : t /= t1
        r1 == CHOOSE r \in Rows : TRUE
        r2 == CHOOSE r \in Rows : r /= r1
        U(r) == [op |-> "UPDATE", row |-> r]
        F(r) == [op |-> "FOR_UPDATE", row |-> r]
    IN {[t \in Tx |-> IF t = t1 THEN <<F(r1), U(r2)>> ELSE <<F(r2), U(r1)>>]}

\* Every transaction UPDATEs two different rows (with three transactions
\* and three rows this includes every two- and three-transaction cycle).
TwoRowUpdates ==
    LET U(r) == [op |-> "UPDATE", row |-> r]
    IN [Tx -> {<<U(p[1]), U(p[2])>> : p \in {q \in Rows \X Rows : q[1] /= q[2]}}]

\* Every transaction locks the rows it touches in one global order (a plain
\* SELECT may come anywhere): the standard deadlock-avoidance discipline.
RowOrder == CHOOSE f \in [Rows -> 1..Cardinality(Rows)] : \A r1, r2 \in Rows : f[r1] = f[r2] => r1 = r2
LocksInOrder(p) ==
    \A i, j \in DOMAIN p :
        (i < j /\ NeedsLock(p[i]) /\ NeedsLock(p[j])) => RowOrder[p[i].row] <= RowOrder[p[j].row]
SameOrder == [Tx -> {p \in AllPrograms : LocksInOrder(p)}]

(***************************************************************************)
(* Invariants and properties.                                              *)
(***************************************************************************)
TypeOK ==
    /\ DOMAIN prog = Tx
    /\ \A t \in Tx : pc[t] \in 1..(Len(prog[t]) + 1)
    /\ status \in [Tx -> {"active", "committed", "rolledback"}]
    /\ held \in [Tx -> SUBSET Rows]

\* No two transactions hold the same row lock.
MutualExclusion == \A t, u \in Tx : t /= u => held[t] \cap held[u] = {}

\* Locks are held only by unfinished transactions.
LocksReleasedAtEnd == \A t \in Tx : status[t] /= "active" => held[t] = {}

\* A blocked transaction waits on exactly one other unfinished one.
WaitsOnUnfinished == \A t \in Tx : BlockedOn(t) \subseteq Active /\ Cardinality(BlockedOn(t)) <= 1

\* The deadlock rule: when no unfinished transaction can run, the wait-for
\* graph has a cycle, and every stuck transaction waits (transitively) on a
\* member of it: the reported cycle is real and explains every stuck thread.
NoRunnableNamesACycle ==
    NoRunnable =>
        LET R == Reach
            C == CycleOf(R)
        IN /\ C /= {}
           /\ \A t \in Active : R[t] \cap C /= {}

\* Conversely, a transaction on a cycle is never runnable.
CycleMembersBlocked == \A t \in Cycle : t \in Active /\ Blocked(t)

\* Expected to be VIOLATED with OppositeOrder (the deadlock is reachable) and
\* to hold with SameOrder.
NoDeadlock == ~NoRunnable

\* Expected to be VIOLATED with three transactions: a cycle can run through
\* all of them (non-vacuity of the three-transaction configuration).
NoThreeTransactionCycle == Cardinality(Cycle) < 3

\* A cycle never dissolves: once on a cycle, always on it (until the
\* database's own deadlock detector intervenes, which the model leaves out
\* and Frontrun pre-empts), so reporting it as soon as it appears is sound.
CyclesPersist == [][LET C == Cycle IN C \subseteq Cycle']_vars
=============================================================================
