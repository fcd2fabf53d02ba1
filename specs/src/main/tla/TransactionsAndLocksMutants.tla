--------------------- MODULE TransactionsAndLocksMutants ---------------------
(***************************************************************************)
(* Deliberately wrong rules, substituted for the rules of                 *)
(* TransactionsAndLocks by the TransactionsAndLocks_Mutant*.cfg           *)
(* configurations.  TLC must reject each one: they show that the          *)
(* invariants of TransactionsAndLocks have teeth.                         *)
(***************************************************************************)
EXTENDS TransactionsAndLocks

\* NOWAIT waits for a held lock like FOR UPDATE, instead of failing at once
\* (violates NowaitAndSkipLockedNeverWait).
WaitingOpsWithNowait == {"FOR_UPDATE", "UPDATE", "NOWAIT"}

\* A REPEATABLE READ waiter re-reads the newest version after the holder's
\* commit, as under READ COMMITTED, instead of failing with 40001: it then
\* overwrites a change its snapshot does not see (violates NoLockOnAnUnseenChange).
FailsAfterWaitNever(t, r) == FALSE

\* ROLLBACK TO SAVEPOINT keeps the locks taken after the savepoint
\* (violates RollbackToReleasesLaterLocks).
SavepointReleaseNothing(t) == {}

\* A released lock goes to nobody, although transactions are queued for it:
\* a lost wake-up (violates QueuedRowsAreHeld).
NoHeirs(S) == {}
=============================================================================
