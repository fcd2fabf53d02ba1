----------------------- MODULE AccessConflictsMutants -----------------------
(***************************************************************************)
(* Deliberately broken variants of the refinement scheme of              *)
(* AccessConflicts, substituted for ReportRow / ReportTable by the       *)
(* AccessConflicts_Mutant*.cfg configurations.  TLC must catch each one: *)
(* they show that the invariants of AccessConflicts have teeth.          *)
(***************************************************************************)
EXTENDS AccessConflicts

\* Mutant 1: a row-level access forgets the weak access on its table.  A
\* predicate read of the table then no longer sees a row write: unsound.
ReportRowWithoutTable(s) ==
       {<<RowRes(s.tbl, s.row), k>> : k \in KindsOf(s)}
  \cup {<<Endpoint, Weak(k)>> : k \in KindsOf(s)}
  \cup (IF s.op \in MembershipOps THEN {<<MemberRes(s.tbl), "WEAK_WRITE">>} ELSE {})

\* Mutant 2: INSERT/DELETE write the membership resource with a strong
\* WRITE.  Still sound, but two inserts of different keys now conflict, so
\* DPOR would explore both orders of independent inserts: imprecise.
ReportRowStrongMembership(s) ==
       {<<RowRes(s.tbl, s.row), k>> : k \in KindsOf(s)}
  \cup {<<TableRes(s.tbl), Weak(k)>> : k \in KindsOf(s)}
  \cup {<<Endpoint, Weak(k)>> : k \in KindsOf(s)}
  \cup (IF s.op \in MembershipOps THEN {<<MemberRes(s.tbl), "WRITE">>} ELSE {})

\* Mutant 3 (AccessConflictsMutants_NoMembership.cfg): no membership
\* resource at all.  Sound and exactly as precise: in this scheme a
\* predicate read is a READ of the table, which already conflicts with the
\* WEAK_WRITE on the table that every row-level INSERT/DELETE reports.
ReportRowNoMembership(s) ==
       {<<RowRes(s.tbl, s.row), k>> : k \in KindsOf(s)}
  \cup {<<TableRes(s.tbl), Weak(k)>> : k \in KindsOf(s)}
  \cup {<<Endpoint, Weak(k)>> : k \in KindsOf(s)}
ReportTableNoMembership(s) ==
       {<<TableRes(s.tbl), k>> : k \in KindsOf(s)}
  \cup {<<Endpoint, Weak(k)>> : k \in KindsOf(s)}
=============================================================================
