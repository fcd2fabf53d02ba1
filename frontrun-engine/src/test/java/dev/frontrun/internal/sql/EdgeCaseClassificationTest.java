package dev.frontrun.internal.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.ResourceAccess;
import dev.frontrun.internal.sql.bind.GeneratedKey;
import dev.frontrun.internal.sql.bind.GeneratedKeyAliases;
import dev.frontrun.internal.sql.bind.KeyAliases;
import dev.frontrun.internal.sql.bind.StatementAccesses;
import dev.frontrun.internal.sql.resource.Granularity;
import dev.frontrun.internal.sql.syntax.LockIntent;
import dev.frontrun.internal.sql.syntax.StatementKind;
import dev.frontrun.internal.sql.syntax.StatementSyntax.Parser;
import dev.frontrun.internal.sql.syntax.TxOp;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Hand-written edge cases, each with the exact accesses expected (sorted). */
class EdgeCaseClassificationTest {

    /** Resource ids as the engine compares them. */
    private static List<String> rendered(Set<dev.frontrun.internal.sql.resource.ResourceId> ids) {
        return ids.stream()
                .map(dev.frontrun.internal.sql.resource.ResourceId::render)
                .toList();
    }

    private final SqlClassifier classifier = PetClinicSchema.classifier();

    private List<String> accesses(String sql, Object... params) {
        return bind(sql, params).accesses().stream()
                .map(ResourceAccess::toString)
                .sorted()
                .toList();
    }

    private StatementAccesses bind(String sql, Object... params) {
        return classifier.classify(sql).bind(Arrays.asList(params));
    }

    @Nested
    class CommonTableExpressions {

        @Test
        void dataModifyingCteWithReturningWritesTheInsertedRow() {
            String sql =
                    "with ins as (insert into owners (id, first_name) values (?, ?) returning id) select id from ins";
            assertThat(accesses(sql, 5, "x"))
                    .containsExactly(
                            "READ sql:owners#keys",
                            "WEAK_WRITE sql:*",
                            "WEAK_WRITE sql:owners",
                            "WEAK_WRITE sql:owners#members",
                            "WRITE sql:owners:(5)");
            assertThat(classifier.classify(sql).kind()).isEqualTo(StatementKind.SELECT);
            assertThat(classifier.classify(sql).tablesWritten()).containsExactly(PetClinicSchema.pub("owners"));
        }

        @Test
        void recursiveCteIsNotATableButTheTablesItFeedsAre() {
            assertThat(accesses("with recursive r(n) as (select 1 union all select n + 1 from r where n < 3) "
                            + "select * from owners o where o.id in (select n from r)"))
                    .containsExactly("READ sql:owners", "READ sql:owners#members", "WEAK_READ sql:*");
        }

        @Test
        void cteShadowsTheTableOfTheSameName() {
            assertThat(accesses("with owners as (select 1 as id) select * from owners where id = 1"))
                    .isEmpty();
        }

        @Test
        void cteUpdateAndDeleteAreWrites() {
            assertThat(accesses(
                            "with u as (update accounts set balance = 0 where id = ? returning id), "
                                    + "d as (delete from order_lines where order_id = ? and line_no = ? returning order_id) "
                                    + "select * from u, d",
                            1,
                            7,
                            2))
                    .containsExactly(
                            "WEAK_WRITE sql:*",
                            "WEAK_WRITE sql:accounts",
                            "WEAK_WRITE sql:order_lines",
                            "WEAK_WRITE sql:order_lines#members",
                            "WRITE sql:accounts:(1)",
                            "WRITE sql:order_lines:(7,2)");
        }
    }

    @Nested
    class SetOperationsAndSubqueries {

        @Test
        void unionBranchesKeepTheirOwnKeys() {
            assertThat(accesses("select id from owners where id = ? union select id from pets where id = ?", 1, 2))
                    .containsExactly(
                            "READ sql:owners#keys",
                            "READ sql:owners:(1)",
                            "READ sql:pets#keys",
                            "READ sql:pets:(2)",
                            "WEAK_READ sql:*",
                            "WEAK_READ sql:owners",
                            "WEAK_READ sql:pets");
        }

        @Test
        void subqueryInWhereIsReadWithItsOwnPredicate() {
            assertThat(accesses("select * from owners o where o.id in (select owner_id from pets where id = 5)"))
                    .containsExactly(
                            "READ sql:owners",
                            "READ sql:owners#members",
                            "READ sql:pets#keys",
                            "READ sql:pets:(5)",
                            "WEAK_READ sql:*",
                            "WEAK_READ sql:pets");
        }

        @Test
        void correlatedExistsRestrictsOnlyItsOwnTable() {
            assertThat(accesses(
                            "select * from owners o where o.id = ? and exists "
                                    + "(select 1 from pets p where p.owner_id = o.id and p.id = ?)",
                            1,
                            2))
                    .containsExactly(
                            "READ sql:owners#keys",
                            "READ sql:owners:(1)",
                            "READ sql:pets#keys",
                            "READ sql:pets:(2)",
                            "WEAK_READ sql:*",
                            "WEAK_READ sql:owners",
                            "WEAK_READ sql:pets");
        }

        @Test
        void derivedTableKeepsItsInnerPredicateButOuterOnesOnItRestrictNothing() {
            assertThat(accesses("select * from (select * from owners where id = 4) sub"))
                    .containsExactly(
                            "READ sql:owners#keys", "READ sql:owners:(4)", "WEAK_READ sql:*", "WEAK_READ sql:owners");
            assertThat(accesses("select * from (select * from owners) sub where sub.id = 4"))
                    .containsExactly("READ sql:owners", "READ sql:owners#members", "WEAK_READ sql:*");
        }

        @Test
        void subqueryInSetClauseIsARead() {
            assertThat(accesses(
                            "update accounts set balance = (select sum(quantity) from order_lines "
                                    + "where order_id = ?) where id = ?",
                            7,
                            2))
                    .containsExactly(
                            "READ sql:order_lines",
                            "READ sql:order_lines#members",
                            "WEAK_WRITE sql:*",
                            "WEAK_WRITE sql:accounts",
                            "WRITE sql:accounts:(2)");
        }
    }

    @Nested
    class JoinPredicates {

        @Test
        void leftJoinOnConditionsRestrictOnlyTheRightSide() {
            assertThat(accesses("select * from owners o left join pets p on p.id = 3 and o.id = 4"))
                    .containsExactly(
                            "READ sql:owners",
                            "READ sql:owners#members",
                            "READ sql:pets#keys",
                            "READ sql:pets:(3)",
                            "WEAK_READ sql:*",
                            "WEAK_READ sql:pets");
        }

        @Test
        void rightJoinOnConditionsRestrictOnlyTheLeftSide() {
            assertThat(accesses("select * from owners o right join pets p on p.id = 3 and o.id = 4"))
                    .containsExactly(
                            "READ sql:owners#keys",
                            "READ sql:owners:(4)",
                            "READ sql:pets",
                            "READ sql:pets#members",
                            "WEAK_READ sql:*",
                            "WEAK_READ sql:owners");
        }

        @Test
        void fullJoinOnConditionsRestrictNothing() {
            assertThat(accesses("select * from owners o full join pets p on p.id = 3 and o.id = 4"))
                    .containsExactly(
                            "READ sql:owners",
                            "READ sql:owners#members",
                            "READ sql:pets",
                            "READ sql:pets#members",
                            "WEAK_READ sql:*");
        }

        @Test
        void usingAndNaturalJoinsMergeColumnsSoUnqualifiedConditionsAreNotAttributed() {
            List<String> expected = List.of(
                    "READ sql:owners",
                    "READ sql:owners#members",
                    "READ sql:pets",
                    "READ sql:pets#members",
                    "WEAK_READ sql:*");
            assertThat(accesses("select * from owners o join pets p using (id) where id = 4"))
                    .isEqualTo(expected);
            assertThat(accesses("select * from owners natural join pets where id = 4"))
                    .isEqualTo(expected);
        }

        @Test
        void lateralSubqueryIsRead() {
            assertThat(accesses("select * from owners o, lateral (select * from pets p where p.owner_id = o.id) x "
                            + "where o.id = 2"))
                    .containsExactly(
                            "READ sql:owners#keys",
                            "READ sql:owners:(2)",
                            "READ sql:pets",
                            "READ sql:pets#members",
                            "WEAK_READ sql:*",
                            "WEAK_READ sql:owners");
        }
    }

    @Nested
    class KeyPredicates {

        @Test
        void orAndNotAndInequalityAreTableLevel() {
            for (String where : List.of(
                    "id = 1 or id = 2",
                    "id = 1 and first_name = 'a' or id = 2",
                    "not id = 1",
                    "id != 1",
                    "id > 1",
                    "id between 1 and 2")) {
                assertThat(accesses("select * from owners where " + where))
                        .as(where)
                        .containsExactly("READ sql:owners", "READ sql:owners#members", "WEAK_READ sql:*");
            }
        }

        @Test
        void compositeKeyNeedsEveryColumn() {
            assertThat(accesses("select * from order_lines where order_id = 7"))
                    .containsExactly("READ sql:order_lines", "READ sql:order_lines#members", "WEAK_READ sql:*");
            assertThat(accesses("select * from order_lines where order_id in (7, 8) and line_no in (1, 2)"))
                    .containsExactly(
                            "READ sql:order_lines:(7,1)",
                            "READ sql:order_lines:(7,2)",
                            "READ sql:order_lines:(8,1)",
                            "READ sql:order_lines:(8,2)",
                            "WEAK_READ sql:*",
                            "WEAK_READ sql:order_lines");
        }

        @Test
        void contradictoryAndNullPredicatesNeverWidenTheKeySet() {
            assertThat(accesses("select * from owners where id = 3 and id = 4"))
                    .containsExactly(
                            "READ sql:owners#keys", "READ sql:owners:(3)", "WEAK_READ sql:*", "WEAK_READ sql:owners");
            assertThat(accesses("select * from owners where id in (3, null)"))
                    .containsExactly(
                            "READ sql:owners#keys", "READ sql:owners:(3)", "WEAK_READ sql:*", "WEAK_READ sql:owners");
            assertThat(accesses("select * from owners where id = null")).isEmpty();
            assertThat(accesses("update owners set city = ? where id = ?", "x", null))
                    .isEmpty();
        }

        @Test
        void anyOfAnArrayLiteral() {
            assertThat(accesses("select * from owners o where o.id = any(array[1, 2])"))
                    .containsExactly(
                            "READ sql:owners#keys",
                            "READ sql:owners:(1)",
                            "READ sql:owners:(2)",
                            "WEAK_READ sql:*",
                            "WEAK_READ sql:owners");
        }
    }

    @Nested
    class Names {

        @Test
        void quotedIdentifiersFoldOnlyWhenUnquoted() {
            assertThat(accesses("select * from \"owners\" where \"id\" = 3"))
                    .containsExactly(
                            "READ sql:owners#keys", "READ sql:owners:(3)", "WEAK_READ sql:*", "WEAK_READ sql:owners");
            assertThat(accesses("SELECT * FROM OWNERS WHERE ID = 3"))
                    .containsExactly(
                            "READ sql:owners#keys", "READ sql:owners:(3)", "WEAK_READ sql:*", "WEAK_READ sql:owners");
            assertThat(accesses("select * from \"Owners\" where id = 3")).containsExactly("READ sql:*");
        }

        @Test
        void schemaQualifiedNamesResolveToOneSpelling() {
            assertThat(accesses("select * from public.owners where owners.id = 3"))
                    .containsExactly(
                            "READ sql:owners#keys", "READ sql:owners:(3)", "WEAK_READ sql:*", "WEAK_READ sql:owners");
            UUID id = UUID.fromString("3f0c2e1a-4a6b-4c3d-9e2f-1a2b3c4d5e6f");
            List<String> expected = List.of(
                    "READ sql:billing.invoices:('3f0c2e1a-4a6b-4c3d-9e2f-1a2b3c4d5e6f')",
                    "WEAK_READ sql:*",
                    "WEAK_READ sql:billing.invoices");
            assertThat(accesses("select * from billing.invoices where id = ?", id))
                    .isEqualTo(expected);
            assertThat(accesses("select * from billing.invoices where id = '3F0C2E1A4A6B4C3D9E2F1A2B3C4D5E6F'"))
                    .isEqualTo(expected);
            assertThat(accesses(
                            "select * from billing.invoices where id = ?", "{3f0c2e1a-4a6b-4c3d-9e2f-1a2b3c4d5e6f}"))
                    .isEqualTo(expected);
        }

        @Test
        void commentsAreIgnored() {
            assertThat(accesses("/* Hibernate comment */ select o.id from owners o /* inline */ where o.id = 3 -- x"))
                    .containsExactly(
                            "READ sql:owners#keys", "READ sql:owners:(3)", "WEAK_READ sql:*", "WEAK_READ sql:owners");
            assertThat(classifier
                            .classify("/* c */ select o.id from owners o where o.id = 3")
                            .parsedBy())
                    .isEqualTo(Parser.FAST_PATH);
        }
    }

    @Nested
    class Upserts {

        @Test
        void onConflictOnThePrimaryKeyStaysRowLevel() {
            List<String> row = List.of(
                    "WEAK_WRITE sql:*",
                    "WEAK_WRITE sql:accounts",
                    "WEAK_WRITE sql:accounts#members",
                    "WRITE sql:accounts:(1)");
            assertThat(accesses(
                            "insert into accounts (id, balance) values (?, ?) on conflict (id) do update "
                                    + "set balance = accounts.balance + excluded.balance",
                            1,
                            10))
                    .isEqualTo(row);
            assertThat(accesses(
                            "insert into accounts (id, balance) values (?, ?) on conflict on constraint "
                                    + "accounts_pkey do update set balance = excluded.balance",
                            1,
                            10))
                    .isEqualTo(row);
            assertThat(accesses("insert into accounts (id, balance) values (?, ?) on conflict do nothing", 1, 10))
                    .isEqualTo(row);
        }

        @Test
        void onConflictOnAnotherKeyOrRekeyingIsTableLevel() {
            List<String> table = List.of(
                    "READ sql:accounts#members",
                    "WEAK_WRITE sql:*",
                    "WEAK_WRITE sql:accounts#members",
                    "WRITE sql:accounts");
            assertThat(accesses(
                            "insert into accounts (id, balance) values (?, ?) on conflict (balance) "
                                    + "do update set balance = 0",
                            1,
                            10))
                    .isEqualTo(table);
            assertThat(accesses(
                            "insert into accounts (id, balance) values (?, ?) on conflict (id) "
                                    + "do update set id = excluded.id + 1",
                            1,
                            10))
                    .isEqualTo(table);
        }

        @Test
        void mergeIsATableLevelWrite() {
            assertThat(accesses(
                            "merge into accounts a using (select ? as id, ? as balance) s on a.id = s.id "
                                    + "when matched then update set balance = s.balance "
                                    + "when not matched then insert (id, balance) values (s.id, s.balance)",
                            1,
                            10))
                    .containsExactly(
                            "READ sql:accounts#members",
                            "WEAK_WRITE sql:*",
                            "WEAK_WRITE sql:accounts#members",
                            "WRITE sql:accounts");
            assertThat(classifier
                            .classify("merge into accounts a using order_lines s on a.id = s.order_id "
                                    + "when matched then delete")
                            .tablesRead())
                    .contains(PetClinicSchema.pub("order_lines"));
        }
    }

    @Nested
    class Locks {

        @Test
        void lockingReadsAreWritesAndReportTheirIntent() {
            for (String[] c : new String[][] {
                {"for update skip locked", "FOR UPDATE SKIP LOCKED"},
                {"for update nowait", "FOR UPDATE NOWAIT"},
                {"for no key update", "FOR NO KEY UPDATE"},
                {"for share", "FOR SHARE"},
                {"for key share", "FOR KEY SHARE"}
            }) {
                String sql = "select * from accounts where id = ? " + c[0];
                assertThat(accesses(sql, 1))
                        .as(sql)
                        .containsExactly("WEAK_WRITE sql:*", "WEAK_WRITE sql:accounts", "WRITE sql:accounts:(1)");
                assertThat(classifier.classify(sql).lockIntent())
                        .map(LockIntent::toString)
                        .contains(c[1]);
            }
        }

        @Test
        void exclusiveLocksAndPredicateReadsForTheProxy() {
            assertThat(rendered(bind("select * from accounts where id = ? for no key update", 1)
                            .exclusiveLocks()))
                    .containsExactly("sql:accounts:(1)");
            assertThat(rendered(bind("select * from accounts where id = ? for share", 1)
                            .exclusiveLocks()))
                    .isEmpty();
            assertThat(rendered(bind("update accounts set balance = 0 where id in (?, ?)", 1, 2)
                            .exclusiveLocks()))
                    .containsExactlyInAnyOrder("sql:accounts:(1)", "sql:accounts:(2)");
            StatementAccesses predicate = bind("update accounts set balance = 0 where balance < ?", 5);
            assertThat(rendered(predicate.exclusiveLocks())).containsExactly("sql:accounts");
            assertThat(rendered(predicate.predicateReads())).containsExactly("sql:accounts");
            StatementAccesses point = bind("select * from pets p join owners o on o.id = p.owner_id where p.id = ?", 7);
            assertThat(rendered(point.predicateReads())).containsExactly("sql:owners");
            assertThat(rendered(point.exclusiveLocks())).isEmpty();
            assertThat(rendered(point.reads()))
                    .containsExactlyInAnyOrder("sql:pets:(7)", "sql:owners", "sql:owners#members");
        }

        @Test
        void lockingViaTheParserAgrees() {
            String sql = "select * from accounts a where a.id = (?) for update skip locked";
            assertThat(classifier.classify(sql).parsedBy()).isEqualTo(Parser.JSQLPARSER);
            assertThat(classifier.classify(sql).lockIntent())
                    .contains(new LockIntent(LockIntent.Strength.UPDATE, LockIntent.WaitPolicy.SKIP_LOCKED));
            assertThat(accesses(sql, 1))
                    .containsExactly("WEAK_WRITE sql:*", "WEAK_WRITE sql:accounts", "WRITE sql:accounts:(1)");
        }

        @Test
        void forUpdateOfLocksOnlyTheNamedTables() {
            assertThat(accesses(
                            "select * from accounts a join order_lines ol on ol.order_id = a.id "
                                    + "where a.id = ? for update of ol",
                            1))
                    .containsExactly(
                            "READ sql:accounts:(1)",
                            "READ sql:order_lines#members",
                            "WEAK_READ sql:accounts",
                            "WEAK_WRITE sql:*",
                            "WRITE sql:order_lines");
        }

        @Test
        void lockTableAndTruncateCoverTheWholeTable() {
            assertThat(accesses("lock table accounts in share mode"))
                    .containsExactly(
                            "READ sql:accounts#members",
                            "WEAK_WRITE sql:*",
                            "WEAK_WRITE sql:accounts#members",
                            "WRITE sql:accounts");
            assertThat(accesses("truncate owners restart identity cascade"))
                    .contains("WRITE sql:*", "WRITE sql:owners", "WRITE sql:pets", "WRITE sql:visits");
        }
    }

    @Nested
    class Writes {

        @Test
        void updatingAKeyColumnIsTableLevel() {
            assertThat(accesses("update accounts set id = ? where id = ?", 2, 1))
                    .containsExactly("READ sql:accounts#members", "WEAK_WRITE sql:*", "WRITE sql:accounts");
        }

        @Test
        void deletingAParentChecksTheChildrenAndCascades() {
            assertThat(accesses("delete from owners where id = ?", 1))
                    .containsExactly(
                            "READ sql:owners#keys",
                            "READ sql:pets",
                            "READ sql:pets#members",
                            "WEAK_WRITE sql:*",
                            "WEAK_WRITE sql:owners",
                            "WEAK_WRITE sql:owners#members",
                            "WRITE sql:owners:(1)");
            assertThat(accesses("delete from pets p using owners o where p.owner_id = o.id and o.id = ?", 1))
                    .containsExactly(
                            "READ sql:owners#keys",
                            "READ sql:owners:(1)",
                            "READ sql:pets#members",
                            "READ sql:visits#members",
                            "WEAK_READ sql:owners",
                            "WEAK_WRITE sql:*",
                            "WEAK_WRITE sql:pets#members",
                            "WEAK_WRITE sql:visits#members",
                            "WRITE sql:pets",
                            "WRITE sql:visits");
        }

        @Test
        void insertReadsTheReferencedParentRowsUnlessTheReferenceIsNull() {
            assertThat(accesses("insert into pets (id, name, owner_id, type_id) values (?, ?, ?, ?)", 7, "x", null, 2))
                    .containsExactly(
                            "READ sql:pets#keys",
                            "READ sql:types#keys",
                            "READ sql:types:(2)",
                            "WEAK_READ sql:types",
                            "WEAK_WRITE sql:*",
                            "WEAK_WRITE sql:pets",
                            "WEAK_WRITE sql:pets#members",
                            "WRITE sql:pets:(7)");
        }

        @Test
        void insertFromAQueryOrWithoutColumnsOrComputedKeyIsTableLevel() {
            assertThat(accesses("insert into owners (id) select id from accounts"))
                    .containsExactly(
                            "READ sql:accounts",
                            "READ sql:accounts#members",
                            "WEAK_WRITE sql:*",
                            "WEAK_WRITE sql:owners#members",
                            "WRITE sql:owners");
            List<String> table = List.of("WEAK_WRITE sql:*", "WEAK_WRITE sql:owners#members", "WRITE sql:owners");
            assertThat(accesses("insert into owners values (1, 'a')")).isEqualTo(table);
            assertThat(accesses("insert into owners (id, first_name) values (?::int, ?)", 1, "a"))
                    .isEqualTo(table);
        }

        @Test
        void sequencesDoNotCommuteWhoGetsWhichValueDependsOnTheOrder() {
            assertThat(accesses("select nextval('owners_seq')"))
                    .containsExactly("WEAK_WRITE sql:*", "WRITE sql:owners_seq");
            assertThat(accesses("select setval('owners_seq', 100)"))
                    .containsExactly("WEAK_WRITE sql:*", "WRITE sql:owners_seq");
            assertThat(accesses("select nextval('no_such_seq')")).containsExactly("WRITE sql:*");
            assertThat(accesses("select currval('owners_seq')")).isEmpty();
        }
    }

    @Nested
    class AdvisoryLocks {

        private static final List<String> KEY_42 =
                List.of("WEAK_WRITE sql:#advisory", "WEAK_WRITE sql:*", "WRITE sql:#advisory:(42)");

        @Test
        void aTransactionsAdvisoryLockIsAWriteOfItsKeyWhateverTheIntegerSpelling() {
            assertThat(accesses("select pg_advisory_xact_lock(42)")).isEqualTo(KEY_42);
            assertThat(accesses("select pg_advisory_xact_lock(?)", 42L)).isEqualTo(KEY_42);
            assertThat(accesses("select pg_advisory_xact_lock(?)", 42)).isEqualTo(KEY_42);
            assertThat(accesses("select pg_advisory_xact_lock(?::bigint)", "042"))
                    .isEqualTo(KEY_42);
            assertThat(accesses("SELECT pg_catalog.pg_try_advisory_xact_lock(CAST(? AS bigint))", 42L))
                    .isEqualTo(KEY_42);
            assertThat(accesses("select pg_advisory_xact_lock_shared(42)"))
                    .as("shared taken for exclusive")
                    .isEqualTo(KEY_42);
            assertThat(accesses("select pg_try_advisory_xact_lock(?, ?)", 4, 2))
                    .as("the two-key form is another key")
                    .containsExactly("WEAK_WRITE sql:#advisory", "WEAK_WRITE sql:*", "WRITE sql:#advisory:(4,2)");
        }

        @Test
        void aKeyNotKnownStandsForEveryAdvisoryLockAndNotForData() {
            for (String sql : List.of("select pg_advisory_xact_lock(hashtext(?))", "select pg_advisory_xact_lock(?)")) {
                assertThat(accesses(sql, "account-7"))
                        .as(sql)
                        .containsExactly("WEAK_WRITE sql:*", "WRITE sql:#advisory");
            }
            assertThat(accesses("select id from accounts where pg_try_advisory_xact_lock(id) limit 1"))
                    .contains("WRITE sql:#advisory", "READ sql:accounts")
                    .doesNotContain("WRITE sql:*");
        }

        @Test
        void onlyALockTheStatementWaitsForGoesToTheLockRegistry() {
            assertThat(rendered(bind("select pg_advisory_xact_lock(?)", 42L).exclusiveLocks()))
                    .containsExactly("sql:#advisory:(42)");
            assertThat(rendered(bind("select pg_try_advisory_xact_lock(?)", 42L).exclusiveLocks()))
                    .isEmpty();
        }

        @Test
        void sessionLocksStayOpaqueAConnectionsCloseReleasesThemUnannounced() {
            for (String sql : List.of(
                    "select pg_advisory_lock(42)",
                    "select pg_try_advisory_lock(42)",
                    "select pg_advisory_unlock(42)",
                    "select pg_advisory_unlock_all()")) {
                assertThat(accesses(sql)).as(sql).containsExactly("WRITE sql:*");
            }
        }
    }

    @Nested
    class Fallbacks {

        @Test
        void unparseableTextIsAWriteOfEverything() {
            for (String sql : List.of(
                    "garbage (((",
                    "select * from owners; select * from pets",
                    "select * from owners where id = 'abc",
                    "select * from owners where id = 1 /* open",
                    "select * from owners where first_name = E'it\\'s'",
                    "select 1 into newtable")) {
                Classification c = classifier.classify(sql);
                assertThat(c.bind(List.of()).accesses()).as(sql).containsExactly(ResourceAccess.write("sql:*"));
                assertThat(c.granularity()).as(sql).isEqualTo(Granularity.ENDPOINT);
                assertThat(c.notes()).as(sql).isNotEmpty();
            }
        }

        @Test
        void unknownFunctionsAndProceduresMayTouchAnything() {
            for (String sql : List.of(
                    "select my_schema.compute(id) from owners",
                    "select pg_advisory_lock(42)",
                    "call do_stuff()",
                    "do $$ begin perform 1; end $$",
                    "explain analyze select * from owners",
                    "create table x (id int)",
                    "copy owners from stdin")) {
                assertThat(accesses(sql)).as(sql).containsExactly("WRITE sql:*");
            }
            assertThat(accesses("select count(*) over (partition by owner_id), lower(name) from pets"))
                    .containsExactly("READ sql:pets", "READ sql:pets#members", "WEAK_READ sql:*");
        }

        @Test
        void viewsAndUnknownRelationsAreReadsOfEverything() {
            assertThat(accesses("select * from owner_names where id = 1")).containsExactly("READ sql:*");
            assertThat(accesses("select * from nowhere where id = 1")).containsExactly("READ sql:*");
            assertThat(accesses("update nowhere set a = 1 where id = 1")).containsExactly("WRITE sql:*");
        }

        @Test
        void parametersThatCannotBeKeysFallBackToTableLevel() {
            List<String> table = List.of("READ sql:owners", "READ sql:owners#members", "WEAK_READ sql:*");
            assertThat(accesses("select * from owners where id = ?")).isEqualTo(table);
            assertThat(accesses("select * from owners where id = ?", 1.5)).isEqualTo(table);
            assertThat(accesses("select * from owners where id = ?", new Object()))
                    .isEqualTo(table);
            assertThat(accesses("select * from owners o where o.id = any(?)", 1))
                    .isEqualTo(table);
            assertThat(bind("select * from owners where id = ?").notes())
                    .contains("owners at table level: parameter 1 is not bound");
        }

        @Test
        void equalValuesOfDifferentJavaTypesNameTheSameRow() {
            List<String> row =
                    List.of("READ sql:owners#keys", "READ sql:owners:(42)", "WEAK_READ sql:*", "WEAK_READ sql:owners");
            for (Object id : List.of(42, 42L, (short) 42, "42", " 42 ", new BigDecimal("42.00"), 42.0)) {
                assertThat(accesses("select * from owners where id = ?", id))
                        .as(id.getClass().getName())
                        .isEqualTo(row);
            }
            assertThat(accesses("select * from owners where id = '42'")).isEqualTo(row);
            assertThat(accesses("select * from owners where id = 42.0")).isEqualTo(row);
        }
    }

    @Nested
    class TransactionControl {

        @Test
        void recognisedWithoutTheParserAndWithoutAccesses() {
            Object[][] cases = {
                {"BEGIN", TxOp.BEGIN, null, null},
                {"start transaction isolation level repeatable read", TxOp.BEGIN, null, "REPEATABLE READ"},
                {"begin isolation level read committed", TxOp.BEGIN, null, "READ COMMITTED"},
                {"COMMIT", TxOp.COMMIT, null, null},
                {"end", TxOp.COMMIT, null, null},
                {"ROLLBACK", TxOp.ROLLBACK, null, null},
                {"abort", TxOp.ROLLBACK, null, null},
                {"rollback work", TxOp.ROLLBACK, null, null},
                {"SAVEPOINT sp1", TxOp.SAVEPOINT, "sp1", null},
                {"RELEASE SAVEPOINT sp1", TxOp.RELEASE_SAVEPOINT, "sp1", null},
                {"release sp1", TxOp.RELEASE_SAVEPOINT, "sp1", null},
                {"ROLLBACK TO SAVEPOINT sp1", TxOp.ROLLBACK_TO_SAVEPOINT, "sp1", null},
                {"rollback to sp1", TxOp.ROLLBACK_TO_SAVEPOINT, "sp1", null},
                {"SET TRANSACTION ISOLATION LEVEL SERIALIZABLE", TxOp.SET_TRANSACTION, null, "SERIALIZABLE"},
                {
                    "set session characteristics as transaction isolation level read uncommitted",
                    TxOp.SET_TRANSACTION,
                    null,
                    "READ UNCOMMITTED"
                },
                {"set local transaction read only", TxOp.SET_TRANSACTION, null, null},
                {"prepare transaction 'tx1'", TxOp.PREPARE_TRANSACTION, null, null},
                {"commit prepared 'tx1'", TxOp.COMMIT_PREPARED, null, null},
            };
            for (Object[] c : cases) {
                Classification cl = classifier.classify((String) c[0]);
                assertThat(cl.kind()).as((String) c[0]).isEqualTo(StatementKind.TRANSACTION);
                assertThat(cl.parsedBy()).isEqualTo(Parser.KEYWORDS);
                assertThat(cl.transactionControl()).hasValueSatisfying(t -> {
                    assertThat(t.op()).as((String) c[0]).isEqualTo(c[1]);
                    assertThat(t.savepoint().orElse(null)).as((String) c[0]).isEqualTo(c[2]);
                    assertThat(t.isolationLevel()
                                    .map(dev.frontrun.Isolation::sql)
                                    .orElse(null))
                            .as((String) c[0])
                            .isEqualTo(c[3]);
                });
                assertThat(cl.bind(List.of()).accesses()).isEmpty();
            }
        }

        @Test
        void sessionUtilitiesTouchNoData() {
            for (String sql : List.of(
                    "SET application_name = 'x'",
                    "show transaction_isolation",
                    "RESET ALL",
                    "explain select * from owners",
                    "DISCARD ALL",
                    "",
                    ";",
                    "  -- only a comment")) {
                Classification cl = classifier.classify(sql);
                assertThat(cl.kind()).as(sql).isEqualTo(StatementKind.UTILITY);
                assertThat(cl.bind(List.of()).accesses()).as(sql).isEmpty();
                assertThat(cl.granularity()).isEqualTo(Granularity.NONE);
            }
        }
    }

    @Nested
    class GeneratedKeys {

        @Test
        void withoutAliasesAGeneratedKeyInsertIsATableLevelWrite() {
            StatementAccesses a = classifier
                    .classify("insert into owners (first_name) values (?) returning id")
                    .bind(List.of("x"), KeyAliases.NONE);
            assertThat(a.accesses())
                    .extracting(ResourceAccess::toString)
                    .containsExactlyInAnyOrder("WRITE sql:owners", "WEAK_WRITE sql:owners#members", "WEAK_WRITE sql:*");
            assertThat(a.generatedKeys()).isEmpty();
        }

        @Test
        void aliasesAreStablePerThreadAndLaterStatementsUseThem() {
            GeneratedKeyAliases registry = new GeneratedKeyAliases();
            Classification insert = classifier.classify("insert into owners (first_name) values (?) returning id");
            assertThat(insert.keysGeneratedByDatabase()).isTrue();
            assertThat(insert.hasReturning()).isTrue();

            StatementAccesses t1first = insert.bind(List.of("a"), registry.forThread("t1"));
            StatementAccesses t0first = insert.bind(List.of("b"), registry.forThread("t0"));
            StatementAccesses t0second = insert.bind(List.of("c"), registry.forThread("t0"));
            assertThat(t0first.rowsTouched()).isEqualTo("owners[id=@t0.1]");
            assertThat(t0second.rowsTouched()).isEqualTo("owners[id=@t0.2]");
            assertThat(t1first.rowsTouched()).isEqualTo("owners[id=@t1.1]");
            assertThat(t0first.conflictsWith(t1first))
                    .as("which insert gets the lower generated key depends on their order")
                    .isTrue();
            assertThat(t0first.accesses()).contains(ResourceAccess.write("sql:owners#keys"));

            // the database happened to give t0's first row id 17 and t1's id 18 in this execution
            GeneratedKey key = t0first.generatedKeys().get(0);
            assertThat(registry.record(key, List.of(17L))).isTrue();
            assertThat(registry.record(t1first.generatedKeys().get(0), List.of(18)))
                    .isTrue();

            Classification read = classifier.classify("select * from owners where id = ?");
            StatementAccesses readBack = read.bind(List.of(17), registry.forThread("t1"));
            assertThat(readBack.accesses()).contains(ResourceAccess.read("sql:owners:(@t0.1)"));
            assertThat(readBack.conflictsWith(t0first)).isTrue();
            assertThat(read.bind(List.of(18), registry.forThread("t0")).rowsTouched())
                    .isEqualTo("owners[id=@t1.1]");
            assertThat(read.bind(List.of(19), registry.forThread("t0")).rowsTouched())
                    .isEqualTo("owners[id=19]");

            registry.clear();
            assertThat(insert.bind(List.of("a"), registry.forThread("t0")).rowsTouched())
                    .isEqualTo("owners[id=@t0.1]");
        }

        @Test
        void defaultValuesAndExplicitDefaultAreGenerated() {
            GeneratedKeyAliases registry = new GeneratedKeyAliases();
            assertThat(classifier
                            .classify("insert into owners default values")
                            .bind(List.of(), registry.forThread("t0"))
                            .accesses())
                    .contains(ResourceAccess.write("sql:owners:(@t0.1)"));
            Classification mixed =
                    classifier.classify("insert into owners (id, first_name) values (default, 'a'), (5, 'b')");
            assertThat(mixed.insertedRows()).hasSize(2);
            assertThat(mixed.insertedRows().get(0).generatedByDatabase()).isTrue();
            assertThat(mixed.insertedRows().get(1).generatedByDatabase()).isFalse();
            assertThat(mixed.bind(List.of(), registry.forThread("t0")).accesses())
                    .contains(ResourceAccess.write("sql:owners:(5)"), ResourceAccess.write("sql:owners:(@t0.2)"));
        }

        @Test
        void aKeyWhoseDefaultIsNotGeneratedGivesEveryInsertThatOmitsItTheSameKey() {
            // accounts.id has no generator: two inserts omitting it collide (or fail alike), so they are table level
            StatementAccesses omitted = classifier
                    .classify("insert into accounts (balance) values (?)")
                    .bind(List.of(1), new GeneratedKeyAliases().forThread("t0"));
            assertThat(omitted.accesses()).contains(ResourceAccess.write("sql:accounts"));
            assertThat(omitted.generatedKeys()).isEmpty();
            assertThat(omitted.notes()).anyMatch(n -> n.contains("default is not generated"));
        }

        @Test
        void explicitKeysAreReportedAsOperands() {
            Classification c = classifier.classify("insert into vet_specialties (specialty_id, vet_id) values (?, 3)");
            assertThat(c.keysGeneratedByDatabase()).isFalse();
            assertThat(c.insertedRows()).singleElement().satisfies(row -> {
                assertThat(row.keyColumns()).containsExactly("vet_id", "specialty_id");
                assertThat(row.key()).extracting(Object::toString).containsExactly("3", "?1");
            });
        }
    }
}
