-------------------------- MODULE AccessConflicts --------------------------
(***************************************************************************)
(* Frontrun's conflict rules (DESIGN section 3) and the SQL resource      *)
(* refinement scheme, checked against a ground truth.                     *)
(*                                                                         *)
(* 1. The access kinds and their conflict table: dev.frontrun.Access.     *)
(* 2. What the JDBC proxy reports for one statement: a set of             *)
(*    <<resource, kind>> pairs over the resources                         *)
(*        row  t:r      sql:<table>:<pk>                                  *)
(*        table t       sql:<table>                                       *)
(*        member t      the per-table membership resource (phantoms)      *)
(*        endpoint *    the whole database                                *)
(* 3. A ground truth of what the statement really touches: per row, its   *)
(*    value, its existence (membership is the set of existence bits) and  *)
(*    its lock.                                                            *)
(*                                                                         *)
(* The state is just a pair of statements <<a, b>>; TLC enumerates every  *)
(* pair as an initial state and checks the invariants below on each.      *)
(***************************************************************************)
EXTENDS FiniteSets

CONSTANTS Tables, Rows      \* e.g. 2 tables x 2 primary keys

VARIABLES a, b
vars == <<a, b>>

(***************************************************************************)
(* Access kinds and the conflict table (Access.conflictsWith).            *)
(***************************************************************************)
Kinds == {"READ", "WRITE", "WEAK_READ", "WEAK_WRITE"}

KindConflict(k1, k2) ==
    CASE k1 = "WRITE"      -> TRUE
      [] k1 = "READ"       -> k2 \in {"WRITE", "WEAK_WRITE"}
      [] k1 = "WEAK_WRITE" -> k2 \in {"WRITE", "READ"}
      [] k1 = "WEAK_READ"  -> k2 = "WRITE"

Weak(k) == IF k \in {"READ", "WEAK_READ"} THEN "WEAK_READ" ELSE "WEAK_WRITE"
Writes(k) == k \in {"WRITE", "WEAK_WRITE"}

(***************************************************************************)
(* Abstract statements.  level row: the WHERE clause pins one primary key *)
(* (or an INSERT with a known / aliased key); level table: any other      *)
(* predicate (a predicate read is a table-level SELECT); level endpoint:  *)
(* tables unknown (read-only but opaque, or unparseable).                 *)
(***************************************************************************)
RowOps   == {"select", "selectForUpdate", "update", "insert", "delete"}
TableOps == {"select", "update", "insert", "delete"}   \* insert = INSERT ... SELECT
EndpointOps == {"select", "unparsed"}

NoTable == "-"
NoRow   == "-"

Stmts ==
       [lvl : {"row"},      op : RowOps,      tbl : Tables,    row : Rows]
  \cup [lvl : {"table"},    op : TableOps,    tbl : Tables,    row : {NoRow}]
  \cup [lvl : {"endpoint"}, op : EndpointOps, tbl : {NoTable}, row : {NoRow}]

IsRead(s)  == s.op = "select"
IsWrite(s) == ~IsRead(s)

\* DESIGN 3.5: SELECT -> read; INSERT -> write; UPDATE/DELETE -> read+write;
\* SELECT ... FOR UPDATE -> write.
KindsOf(s) ==
    CASE s.op = "select"          -> {"READ"}
      [] s.op = "selectForUpdate" -> {"WRITE"}
      [] s.op = "insert"          -> {"WRITE"}
      [] s.op \in {"update", "delete"} -> {"READ", "WRITE"}
      [] s.op = "unparsed"        -> {"WRITE"}

RowRes(t, r) == <<"row", t, r>>
TableRes(t)  == <<"table", t>>
MemberRes(t) == <<"member", t>>
Endpoint     == <<"endpoint">>

(***************************************************************************)
(* What the JDBC proxy reports (DESIGN 3.4-3.6).                          *)
(***************************************************************************)
MembershipOps == {"insert", "delete"}

ReportRow(s) ==
       {<<RowRes(s.tbl, s.row), k>> : k \in KindsOf(s)}
  \cup {<<TableRes(s.tbl), Weak(k)>> : k \in KindsOf(s)}
  \cup {<<Endpoint, Weak(k)>> : k \in KindsOf(s)}
  \cup (IF s.op \in MembershipOps THEN {<<MemberRes(s.tbl), "WEAK_WRITE">>} ELSE {})

ReportTable(s) ==
       {<<TableRes(s.tbl), k>> : k \in KindsOf(s)}
  \cup {<<Endpoint, Weak(k)>> : k \in KindsOf(s)}
  \cup (CASE s.op = "select"        -> {<<MemberRes(s.tbl), "READ">>}
          [] s.op \in MembershipOps -> {<<MemberRes(s.tbl), "WRITE">>}
          [] OTHER                  -> {})

ReportEndpoint(s) == {<<Endpoint, k>> : k \in KindsOf(s)}

Reported(s) ==
    CASE s.lvl = "row"      -> ReportRow(s)
      [] s.lvl = "table"    -> ReportTable(s)
      [] s.lvl = "endpoint" -> ReportEndpoint(s)

\* Two steps conflict when they report conflicting kinds on one resource.
Conflict(s1, s2) ==
    \E x \in Reported(s1), y \in Reported(s2) :
        x[1] = y[1] /\ KindConflict(x[2], y[2])

(***************************************************************************)
(* Ground truth: the data a statement really reads or writes.  A datum is *)
(* one row's value, existence or lock; a table-level statement touches    *)
(* every row of its table (present or not), an endpoint one everything.  *)
(***************************************************************************)
Val(t, r)  == <<"val", t, r>>
Ex(t, r)   == <<"exists", t, r>>
Lock(t, r) == <<"lock", t, r>>

\* <<datum, "r" | "w">> pairs for one row r of table t, by operation.
RowTouch(op, t, r) ==
    CASE op = "select"          -> {<<Val(t, r), "r">>, <<Ex(t, r), "r">>}
      [] op = "selectForUpdate" -> {<<Val(t, r), "r">>, <<Ex(t, r), "r">>, <<Lock(t, r), "w">>}
      [] op = "update"          -> {<<Val(t, r), "r">>, <<Val(t, r), "w">>, <<Ex(t, r), "r">>,
                                    <<Lock(t, r), "w">>}
      [] op = "insert"          -> {<<Val(t, r), "w">>, <<Ex(t, r), "r">>, <<Ex(t, r), "w">>,
                                    <<Lock(t, r), "w">>}
      [] op = "delete"          -> {<<Val(t, r), "r">>, <<Ex(t, r), "r">>, <<Ex(t, r), "w">>,
                                    <<Lock(t, r), "w">>}

Touch(s) ==
    CASE s.lvl = "row"   -> RowTouch(s.op, s.tbl, s.row)
      [] s.lvl = "table" -> UNION {RowTouch(s.op, s.tbl, r) : r \in Rows}
      [] s.lvl = "endpoint" ->
            UNION {RowTouch(IF s.op = "select" THEN "select" ELSE "update", t, r)
                     \cup (IF s.op = "select" THEN {} ELSE RowTouch("insert", t, r) \cup RowTouch("delete", t, r))
                   : t \in Tables, r \in Rows}

Datums(s) == {x[1] : x \in Touch(s)}
WritesDatum(s, d) == <<d, "w">> \in Touch(s)

\* The statements may not commute: a common datum, written by at least one.
TrueConflict(s1, s2) ==
    \E d \in Datums(s1) \cap Datums(s2) : WritesDatum(s1, d) \/ WritesDatum(s2, d)

(***************************************************************************)
(* The model: any pair of statements.                                     *)
(***************************************************************************)
Init == a \in Stmts /\ b \in Stmts
Next == UNCHANGED vars
Spec == Init /\ [][Next]_vars

TypeOK == a \in Stmts /\ b \in Stmts

(***************************************************************************)
(* Invariants.                                                             *)
(***************************************************************************)
\* The kind table: symmetric; reads never conflict with reads; weak kinds
\* never conflict with weak kinds; WRITE conflicts with every kind.
KindTableSymmetric == \A k1, k2 \in Kinds : KindConflict(k1, k2) = KindConflict(k2, k1)
ReadReadIndependent == ~KindConflict("READ", "READ")
                       /\ \A k1, k2 \in {"READ", "WEAK_READ"} : ~KindConflict(k1, k2)
WeakWeakIndependent == \A k1, k2 \in {"WEAK_READ", "WEAK_WRITE"} : ~KindConflict(k1, k2)
WriteConflictsWithAll == \A k \in Kinds : KindConflict("WRITE", k)

KindTable == KindTableSymmetric /\ ReadReadIndependent
             /\ WeakWeakIndependent /\ WriteConflictsWithAll

ConflictSymmetric == Conflict(a, b) = Conflict(b, a)

\* Soundness: statements that may not commute are reported as conflicting.
Soundness == TrueConflict(a, b) => Conflict(a, b)

\* Precision 1: row-level statements on different rows never conflict
\* (different tables, or the same table and different keys).
RowPrecision ==
    (a.lvl = "row" /\ b.lvl = "row" /\ <<a.tbl, a.row>> /= <<b.tbl, b.row>>)
        => ~Conflict(a, b)

\* Precision 2: two reads never conflict, whatever their level.
ReadPrecision == (IsRead(a) /\ IsRead(b)) => ~Conflict(a, b)

\* Precision 3: statements on different known tables never conflict.
TablePrecision ==
    (a.lvl /= "endpoint" /\ b.lvl /= "endpoint" /\ a.tbl /= b.tbl) => ~Conflict(a, b)

\* Exactness: the only reported conflict the ground truth does not demand is
\* SELECT ... FOR UPDATE (reported WRITE so that locking read-modify-write
\* sections are ordered) against a plain read of the same row(s).
LockOnly(s) == s.op = "selectForUpdate"
OnlyKnownOverApproximation ==
    Conflict(a, b) =>
        \/ TrueConflict(a, b)
        \/ LockOnly(a) /\ IsRead(b)
        \/ LockOnly(b) /\ IsRead(a)

\* An unparseable statement conflicts with every statement.
UnparsedConflictsWithAll == (a.op = "unparsed") => Conflict(a, b)
=============================================================================
