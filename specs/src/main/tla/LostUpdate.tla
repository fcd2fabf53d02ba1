---------------------------- MODULE LostUpdate ----------------------------
(***************************************************************************)
(* The lost update Frontrun exists to find: transactions that each        *)
(* increment one counter row by read-modify-write, interleaving at        *)
(* statement level (DESIGN section 2: transactions are not atomic to the  *)
(* scheduler; isolation is the database's).  PostgreSQL semantics:        *)
(*                                                                         *)
(*  Mode "plain":     SELECT c;              UPDATE SET c = :read + 1;    *)
(*  Mode "forUpdate": SELECT c FOR UPDATE;   UPDATE SET c = :read + 1;    *)
(*  Mode "atomic":                           UPDATE SET c = c + 1;        *)
(*  then COMMIT.                                                           *)
(*                                                                         *)
(* READ COMMITTED: a plain SELECT sees the latest committed value; UPDATE *)
(* and FOR UPDATE take the row lock (blocking while another transaction   *)
(* holds it) and then work on the latest committed version, so c + 1 is   *)
(* re-evaluated but a value computed by the application is not.           *)
(* REPEATABLE READ: the snapshot is taken at the first statement; an      *)
(* UPDATE of a row committed by another transaction since then fails     *)
(* with a serialization error and the transaction rolls back.             *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets

CONSTANTS
    Tx,         \* the transactions (model values)
    Mode,       \* "plain" | "forUpdate" | "atomic"
    Isolation   \* "RC" | "RR"

ASSUME Mode \in {"plain", "forUpdate", "atomic"}
ASSUME Isolation \in {"RC", "RR"}
\* Under RR a blocked FOR UPDATE / UPDATE keeps the snapshot of its start;
\* the model has no statement start separate from its execution, so RR is
\* modelled for the non-blocking plain read only.
ASSUME Isolation = "RR" => Mode = "plain"

None == "none"

VARIABLES
    counter,    \* the committed value of the row
    version,    \* how many committed writes the row has had
    holder,     \* the transaction holding the row lock, or None
    pc,         \* "read" | "write" | "commit" | "done"
    local,      \* the value the application read
    pending,    \* the transaction's uncommitted new value, or None
    snapVer,    \* RR: the row version in the transaction's snapshot
    status      \* "active" | "committed" | "aborted"

vars == <<counter, version, holder, pc, local, pending, snapVer, status>>

Committed == {t \in Tx : status[t] = "committed"}
AllDone == \A t \in Tx : pc[t] = "done"
LockFree(t) == holder \in {None, t}

Init ==
    /\ counter = 0
    /\ version = 0
    /\ holder = None
    /\ pc = [t \in Tx |-> IF Mode = "atomic" THEN "write" ELSE "read"]
    /\ local = [t \in Tx |-> None]
    /\ pending = [t \in Tx |-> None]
    /\ snapVer = [t \in Tx |-> version]
    /\ status = [t \in Tx |-> "active"]

\* SELECT c: the latest committed value (RC), or the snapshot, taken now (RR).
PlainRead(t) ==
    /\ Mode = "plain" /\ pc[t] = "read"
    /\ local' = [local EXCEPT ![t] = counter]
    /\ snapVer' = [snapVer EXCEPT ![t] = version]
    /\ pc' = [pc EXCEPT ![t] = "write"]
    /\ UNCHANGED <<counter, version, holder, pending, status>>

\* SELECT c FOR UPDATE (RC): wait for the lock, then read the latest version.
LockingRead(t) ==
    /\ Mode = "forUpdate" /\ pc[t] = "read"
    /\ LockFree(t)
    /\ holder' = t
    /\ local' = [local EXCEPT ![t] = counter]
    /\ pc' = [pc EXCEPT ![t] = "write"]
    /\ UNCHANGED <<counter, version, pending, snapVer, status>>

\* UPDATE: wait for the lock; under RR fail if the row changed since the
\* snapshot; otherwise write :read + 1, or c + 1 on the latest version.
Write(t) ==
    /\ pc[t] = "write"
    /\ LockFree(t)
    /\ IF Isolation = "RR" /\ version /= snapVer[t]
       THEN \* serialization failure: the transaction rolls back
            /\ holder' = None
            /\ pc' = [pc EXCEPT ![t] = "done"]
            /\ status' = [status EXCEPT ![t] = "aborted"]
            /\ UNCHANGED <<counter, version, local, pending, snapVer>>
       ELSE /\ holder' = t
            /\ pending' = [pending EXCEPT ![t] =
                              IF Mode = "atomic" THEN counter + 1 ELSE local[t] + 1]
            /\ pc' = [pc EXCEPT ![t] = "commit"]
            /\ UNCHANGED <<counter, version, local, snapVer, status>>

Commit(t) ==
    /\ pc[t] = "commit"
    /\ counter' = pending[t]
    /\ version' = version + 1
    /\ holder' = None
    /\ pending' = [pending EXCEPT ![t] = None]
    /\ pc' = [pc EXCEPT ![t] = "done"]
    /\ status' = [status EXCEPT ![t] = "committed"]
    /\ UNCHANGED <<local, snapVer>>

\* The execution is over: stutter (TLC's deadlock check stays meaningful).
Done == AllDone /\ UNCHANGED vars

Next == Done \/ \E t \in Tx : PlainRead(t) \/ LockingRead(t) \/ Write(t) \/ Commit(t)
Spec == Init /\ [][Next]_vars

TypeOK ==
    /\ counter \in Nat /\ version \in Nat
    /\ holder \in Tx \cup {None}
    /\ pc \in [Tx -> {"read", "write", "commit", "done"}]
    /\ status \in [Tx -> {"active", "committed", "aborted"}]

\* The application's invariant: every increment counted.  EXPECTED TO BE
\* VIOLATED for Mode "plain" under READ COMMITTED (the lost update).
CounterIsTwo == AllDone => counter = Cardinality(Tx)

\* For REPEATABLE READ: every *committed* increment is counted (the loser of
\* the race is aborted instead of overwriting; were it not, the plain read
\* would lose an update here exactly as under READ COMMITTED).
NoLostUpdate == AllDone => counter = Cardinality(Committed)
=============================================================================
