package dev.frontrun.internal.sql.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.ResourceAccess;
import dev.frontrun.internal.sql.Classification;
import dev.frontrun.internal.sql.PetClinicSchema;
import dev.frontrun.internal.sql.SqlClassifier;
import dev.frontrun.internal.sql.syntax.TableName;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.ds.PGSimpleDataSource;

/** {@link JdbcTableCatalog} against a real PostgreSQL database. */
@ExtendWith(PostgresExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JdbcTableCatalogTest {

    private TestDatabase db;
    private JdbcTableCatalog catalog;

    @BeforeAll
    void schema(TestDatabase db) {
        this.db = db;
        db.execute(PetClinicSchema.DDL);
        db.execute(
                "CREATE TABLE reordered (b int, a int, c text, PRIMARY KEY (a, b))",
                "CREATE SCHEMA inventory",
                "CREATE TABLE inventory.items (sku char(8), warehouse int, qty int, PRIMARY KEY (warehouse, sku))",
                "CREATE TABLE \"Mixed Case\" (\"Id\" bigint PRIMARY KEY)",
                "CREATE TABLE money (id numeric PRIMARY KEY)",
                "CREATE TABLE stamped (id timestamptz PRIMARY KEY)",
                "CREATE TABLE triggered (id int PRIMARY KEY, n int)",
                "CREATE FUNCTION bump() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.n := 1; RETURN NEW; END $$",
                "CREATE TRIGGER bump BEFORE INSERT ON triggered FOR EACH ROW EXECUTE FUNCTION bump()",
                "CREATE TABLE measurements (id int, at date, PRIMARY KEY (id, at)) PARTITION BY RANGE (at)",
                "CREATE TABLE measurements_2024 PARTITION OF measurements FOR VALUES FROM ('2024-01-01') TO ('2025-01-01')",
                "CREATE TABLE base (id int PRIMARY KEY)",
                "CREATE TABLE derived (extra int) INHERITS (base)",
                "CREATE TABLE secured (id int PRIMARY KEY, owner text)",
                "ALTER TABLE secured ENABLE ROW LEVEL SECURITY",
                "CREATE TABLE bookings (id int PRIMARY KEY, during tsrange, EXCLUDE USING gist (during WITH &&))",
                "CREATE TABLE emails (id int PRIMARY KEY, address text)",
                "CREATE UNIQUE INDEX emails_lower ON emails (lower(address))",
                "CREATE TABLE cascades (id int PRIMARY KEY, owner_id int REFERENCES owners (id) ON DELETE SET NULL)");
        catalog = JdbcTableCatalog.of(db.dataSource());
    }

    private TableInfo found(TableName name) {
        TableLookup lookup = catalog.lookup(name);
        assertThat(lookup).as(name.toString()).isInstanceOf(TableLookup.Found.class);
        return ((TableLookup.Found) lookup).info();
    }

    @Test
    void agreesWithTheFixedDescriptionOfTheTestSchema() {
        Map<TableName, TableInfo> expected = PetClinicSchema.tables().stream()
                .map(t -> ((TableLookup.Found) PetClinicSchema.catalog().lookup(t.name())).info())
                .collect(Collectors.toMap(TableInfo::name, Function.identity()));
        for (TableInfo want : expected.values()) {
            TableName asWritten = want.name().schema().equals("public")
                    ? TableName.of(want.name().name())
                    : want.name();
            TableInfo got = found(asWritten);
            assertThat(got.name()).isEqualTo(want.name());
            assertThat(got.kind()).as(want.name().toString()).isEqualTo(want.kind());
            assertThat(got.primaryKey()).as(want.name().toString()).isEqualTo(want.primaryKey());
            assertThat(got.primaryKeyName()).as(want.name().toString()).isEqualTo(want.primaryKeyName());
            assertThat(got.foreignKeys())
                    .as(want.name().toString())
                    .containsExactlyInAnyOrderElementsOf(want.foreignKeys());
            if (!want.name().name().equals("owners")) { // the extra table "cascades" references owners too
                assertThat(got.referencedBy())
                        .as(want.name().toString())
                        .containsExactlyInAnyOrderElementsOf(want.referencedBy());
            }
            assertThat(got.uniqueKeys()).as(want.name().toString()).isEqualTo(want.uniqueKeys());
            assertThat(got.hazards()).as(want.name().toString()).isEqualTo(want.hazards());
        }
    }

    @Test
    void onlyIdentitySequenceAndUuidDefaultsGenerateKeysAConstantDefaultDoesNot() {
        db.execute(
                "CREATE TABLE gen_identity (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY)",
                "CREATE TABLE gen_uuid (id uuid DEFAULT gen_random_uuid() PRIMARY KEY)",
                // PostgreSQL 18's uuidv7(), stood in for on older servers by a function of that name
                "CREATE OR REPLACE FUNCTION uuidv7() RETURNS uuid LANGUAGE sql AS 'SELECT gen_random_uuid()'",
                "CREATE TABLE gen_uuid7 (id uuid DEFAULT uuidv7() PRIMARY KEY)",
                "CREATE TABLE gen_constant (name text DEFAULT 'main' PRIMARY KEY, n int)",
                "CREATE TABLE gen_partial (id int PRIMARY KEY, tag text, deleted boolean NOT NULL DEFAULT false)",
                "CREATE UNIQUE INDEX gen_partial_live ON gen_partial (tag) WHERE NOT deleted");
        assertThat(found(TableName.of("owners")).primaryKey().get(0).generated())
                .as("serial")
                .isTrue();
        assertThat(found(TableName.of("gen_identity")).primaryKey().get(0).generated())
                .as("identity")
                .isTrue();
        assertThat(found(TableName.of("gen_uuid")).primaryKey().get(0).generated())
                .as("uuid default")
                .isTrue();
        assertThat(found(TableName.of("gen_uuid7")).primaryKey().get(0).generated())
                .as("uuidv7 default")
                .isTrue();
        assertThat(found(TableName.of("gen_constant")).primaryKey().get(0).generated())
                .as("constant default")
                .isFalse();
        assertThat(found(TableName.of("gen_partial")).uniqueKeys())
                .as("a partial unique index spans every column")
                .containsExactly(List.of("deleted", "id", "tag"));
    }

    @Test
    void theSequencesColumnDefaultsDrawFromAreReadUnderTheNamesNextvalGives() {
        db.execute(
                "CREATE TABLE seq_serial (id serial PRIMARY KEY, n int)",
                "CREATE TABLE seq_identity (id int GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, n int)",
                "CREATE SEQUENCE inventory.ticket_seq",
                "CREATE TABLE seq_ticket (id int PRIMARY KEY, order_no bigint DEFAULT nextval('inventory.ticket_seq'),"
                        + " line serial)",
                "CREATE SEQUENCE late_seq",
                "CREATE TABLE seq_late (id int PRIMARY KEY, n bigint DEFAULT nextval('late_seq'::text))");
        assertThat(found(TableName.of("seq_serial")).sequences())
                .isEqualTo(Map.of("id", Set.of(new TableName("public", "seq_serial_id_seq"))));
        assertThat(found(TableName.of("seq_identity")).sequences())
                .isEqualTo(Map.of("id", Set.of(new TableName("public", "seq_identity_id_seq"))));
        assertThat(found(TableName.of("seq_ticket")).sequences())
                .isEqualTo(Map.of(
                        "order_no", Set.of(new TableName("inventory", "ticket_seq")),
                        "line", Set.of(new TableName("public", "seq_ticket_line_seq"))));
        assertThat(found(TableName.of("seq_late")).sequences())
                .as("a nextval on a text argument records no dependency: not known")
                .isEmpty();

        SqlClassifier classifier = SqlClassifier.forDataSource(db.dataSource());
        assertThat(accesses(classifier, "select nextval('seq_serial_id_seq')")).contains("WRITE sql:seq_serial_id_seq");
        assertThat(accesses(classifier, "insert into seq_serial (n) values (1)"))
                .contains("WRITE sql:seq_serial_id_seq");
        assertThat(accesses(classifier, "insert into seq_serial (id, n) values (default, 1)"))
                .contains("WRITE sql:seq_serial_id_seq");
        assertThat(accesses(classifier, "insert into seq_serial (id, n) values (5, 1), (6, 2)"))
                .as("every row gives the key")
                .noneMatch(a -> a.contains("seq_serial_id_seq"));
        assertThat(accesses(classifier, "insert into seq_serial (id, n) values (5, 1), (default, 2)"))
                .contains("WRITE sql:seq_serial_id_seq");
        assertThat(accesses(classifier, "insert into seq_identity (n) values (1)"))
                .contains("WRITE sql:seq_identity_id_seq");
        assertThat(accesses(classifier, "select nextval('inventory.ticket_seq')"))
                .contains("WRITE sql:inventory.ticket_seq");
        assertThat(accesses(classifier, "insert into seq_ticket (id) values (1)"))
                .contains("WRITE sql:inventory.ticket_seq", "WRITE sql:seq_ticket_line_seq")
                .doesNotContain("WRITE sql:seq_ticket#keys");
        assertThat(accesses(classifier, "insert into seq_ticket (id, order_no) values (1, 7)"))
                .contains("WRITE sql:seq_ticket_line_seq")
                .doesNotContain("WRITE sql:inventory.ticket_seq");
        assertThat(accesses(classifier, "update seq_ticket set order_no = default where id = 1"))
                .contains("WRITE sql:inventory.ticket_seq")
                .doesNotContain("WRITE sql:seq_ticket_line_seq");
        assertThat(accesses(classifier, "update seq_ticket set order_no = 3 where id = 1"))
                .noneMatch(a -> a.contains("_seq"));
    }

    @Test
    void foreignKeysComeWithTheirActionsAndASelfReferenceGoesBothWays() {
        db.execute(
                "CREATE TABLE tree (id int PRIMARY KEY, parent_id int REFERENCES tree (id) ON DELETE CASCADE"
                        + " ON UPDATE RESTRICT, owner_a int, owner_b int)",
                "CREATE TABLE pair (a int, b int, PRIMARY KEY (a, b))",
                "ALTER TABLE tree ADD FOREIGN KEY (owner_b, owner_a) REFERENCES pair (b, a) ON DELETE SET DEFAULT");
        TableInfo tree = found(TableName.of("tree"));
        ForeignKey self = new ForeignKey(
                TableName.of("public", "tree"),
                List.of("parent_id"),
                TableName.of("public", "tree"),
                List.of("id"),
                ReferentialAction.CASCADE,
                ReferentialAction.RESTRICT);
        ForeignKey toPair = new ForeignKey(
                TableName.of("public", "tree"),
                List.of("owner_b", "owner_a"),
                TableName.of("public", "pair"),
                List.of("b", "a"),
                ReferentialAction.SET_DEFAULT,
                ReferentialAction.NO_ACTION);
        assertThat(tree.foreignKeys()).containsExactly(toPair, self);
        assertThat(tree.referencedBy()).containsExactly(self);
        assertThat(found(TableName.of("cascades")).foreignKeys())
                .singleElement()
                .satisfies(fk -> assertThat(fk.onDelete()).isEqualTo(ReferentialAction.SET_NULL));
    }

    @Test
    void aUniqueIndexIsUniqueOverItsKeyColumnsNotItsIncludedOnes() {
        db.execute(
                "CREATE TABLE covered (id int PRIMARY KEY, code text, label text)",
                "CREATE UNIQUE INDEX covered_code ON covered (code) INCLUDE (label)");
        TableInfo covered = found(TableName.of("covered"));
        assertThat(covered.uniqueKeys()).containsExactly(List.of("code"));
        assertThat(covered.hazards()).isEmpty();
    }

    @Test
    void keyColumnsComeInKeyOrderWithTheirTypes() {
        assertThat(found(TableName.of("reordered")).primaryKey())
                .containsExactly(
                        new KeyColumn("a", KeyType.INTEGER, false), new KeyColumn("b", KeyType.INTEGER, false));
        assertThat(found(TableName.of("inventory", "items")).primaryKey())
                .containsExactly(
                        new KeyColumn("warehouse", KeyType.INTEGER, false),
                        new KeyColumn("sku", KeyType.BPCHAR, false));
        assertThat(found(TableName.of("Mixed Case")).primaryKey())
                .containsExactly(new KeyColumn("Id", KeyType.INTEGER, false));
        assertThat(found(TableName.of("money")).primaryKey())
                .containsExactly(new KeyColumn("id", KeyType.NUMERIC, false));
        assertThat(found(TableName.of("stamped")).primaryKey())
                .containsExactly(new KeyColumn("id", KeyType.OTHER, false));
    }

    @Test
    void namesResolveAlongTheSearchPath() {
        assertThat(catalog.lookup(TableName.of("items"))).isInstanceOf(TableLookup.Missing.class);
        assertThat(catalog.lookup(TableName.of("Owners"))).isInstanceOf(TableLookup.Missing.class);
        assertThat(found(TableName.of("public", "owners")).name()).isEqualTo(TableName.of("public", "owners"));

        PGSimpleDataSource inventoryFirst = (PGSimpleDataSource) db.dataSource();
        inventoryFirst.setCurrentSchema("inventory,public");
        JdbcTableCatalog other = JdbcTableCatalog.of(inventoryFirst);
        TableLookup items = other.lookup(TableName.of("items"));
        assertThat(items)
                .isInstanceOfSatisfying(
                        TableLookup.Found.class,
                        f -> assertThat(f.info().name()).isEqualTo(TableName.of("inventory", "items")));
    }

    @Test
    void hazardsAreDetected() {
        assertThat(found(TableName.of("triggered")).hazards()).containsExactly(Hazard.TRIGGERS);
        assertThat(found(TableName.of("measurements")).kind()).isEqualTo(RelationKind.PARTITIONED_TABLE);
        assertThat(found(TableName.of("measurements_2024")).hazards()).contains(Hazard.INHERITANCE);
        assertThat(found(TableName.of("base")).hazards()).containsExactly(Hazard.INHERITANCE);
        assertThat(found(TableName.of("derived")).hazards()).containsExactly(Hazard.INHERITANCE);
        assertThat(found(TableName.of("secured")).hazards()).containsExactly(Hazard.ROW_LEVEL_SECURITY);
        assertThat(found(TableName.of("bookings")).hazards()).containsExactly(Hazard.EXCLUSION_CONSTRAINT);
        assertThat(found(TableName.of("emails")).hazards()).containsExactly(Hazard.UNIQUE_EXPRESSION);
        assertThat(found(TableName.of("owners")).referencedBy())
                .contains(new ForeignKey(
                        TableName.of("public", "cascades"),
                        List.of("owner_id"),
                        TableName.of("public", "owners"),
                        List.of("id"),
                        ReferentialAction.SET_NULL,
                        ReferentialAction.NO_ACTION));
    }

    @Test
    void classifierOverRealMetadataProducesRowsWithTheRightKeyColumns() {
        SqlClassifier classifier = SqlClassifier.forDataSource(db.dataSource());
        assertThat(accesses(classifier, "select * from reordered r where r.b = ? and r.a = ?", 1, 2))
                .contains("READ sql:reordered:(2,1)");
        assertThat(accesses(
                        classifier,
                        "update inventory.items set qty = 0 where sku = ? and warehouse = ?",
                        "AB      ",
                        3))
                .contains("WRITE sql:inventory.items:(3,'AB')", "WEAK_WRITE sql:inventory.items");
        assertThat(accesses(classifier, "delete from \"Mixed Case\" where \"Id\" = ?", 9L))
                .contains("WRITE sql:\"Mixed Case\":(9)");
        assertThat(accesses(classifier, "select * from money where id = ?", new java.math.BigDecimal("1.50")))
                .contains("READ sql:money:(1.5)");
        assertThat(accesses(classifier, "select * from stamped where id = now()"))
                .containsExactly("READ sql:stamped", "READ sql:stamped#members", "WEAK_READ sql:*");
        assertThat(accesses(classifier, "insert into triggered (id) values (1)"))
                .containsExactly("WRITE sql:*");
        assertThat(accesses(classifier, "select * from triggered where id = 1")).contains("READ sql:triggered:(1)");
        assertThat(accesses(classifier, "select * from measurements where id = 1"))
                .containsExactly("READ sql:*");
        assertThat(accesses(classifier, "insert into emails (id, address) values (1, 'a')"))
                .contains("WRITE sql:emails");
        assertThat(accesses(classifier, "delete from owners where id = ?", 1))
                .contains("WRITE sql:owners:(1)", "WRITE sql:cascades", "READ sql:pets");
        Classification view = classifier.classify("select * from owner_names");
        assertThat(view.touchesUnknownTables()).isTrue();
    }

    @Test
    void unavailableMetadataIsNotCachedAndFallsBackToTheEndpoint() {
        AtomicInteger attempts = new AtomicInteger();
        ConnectionSource failing = new ConnectionSource() {
            @Override
            public Connection acquire() throws SQLException {
                attempts.incrementAndGet();
                throw new SQLException("database is down");
            }

            @Override
            public void release(Connection connection) {}
        };
        SqlClassifier classifier = new SqlClassifier(new JdbcTableCatalog(failing));
        String sql = "select * from owners where id = 1";
        assertThat(classifier.classify(sql).bind(List.of()).accesses()).containsExactly(ResourceAccess.read("sql:*"));
        assertThat(classifier.classify(sql).notes()).anyMatch(n -> n.contains("database is down"));
        assertThat(attempts.get())
                .as("each classification: every table at once, then the one table")
                .isEqualTo(4);
    }

    /** An application's first statements name several tables: they should not each wait for a connection. */
    @Test
    void theFirstLookupReadsEveryTableAtOnceAndALaterTableIsReadByItself() {
        AtomicInteger acquired = new AtomicInteger();
        JdbcTableCatalog counted = new JdbcTableCatalog(new ConnectionSource() {
            @Override
            public Connection acquire() throws SQLException {
                acquired.incrementAndGet();
                return db.dataSource().getConnection();
            }

            @Override
            public void release(Connection connection) throws SQLException {
                connection.close();
            }
        });
        for (TableName name : List.of(
                TableName.of("owners"),
                TableName.of("public", "owners"),
                TableName.of("pets"),
                TableName.of("inventory", "items"),
                TableName.of("Mixed Case"),
                TableName.of("measurements_2024"))) {
            assertThat(counted.lookup(name))
                    .as(name.toString())
                    .isEqualTo(catalog.lookup(name))
                    .isInstanceOf(TableLookup.Found.class);
        }
        assertThat(counted.lookup(TableName.of("items")))
                .as("not on the search path")
                .isInstanceOf(TableLookup.Missing.class);
        assertThat(acquired)
                .as("one connection for all of them, one more for the name it did not find")
                .hasValue(2);

        db.execute("CREATE TABLE latecomer (id int PRIMARY KEY)");
        assertThat(counted.lookup(TableName.of("latecomer"))).isInstanceOf(TableLookup.Found.class);
        assertThat(acquired).hasValue(3);
        counted.invalidate();
        assertThat(counted.lookup(TableName.of("public", "latecomer"))).isInstanceOf(TableLookup.Found.class);
        assertThat(counted.lookup(TableName.of("owners"))).isInstanceOf(TableLookup.Found.class);
        assertThat(acquired).as("invalidated: every table read at once again").hasValue(4);
    }

    /** Between two explorations the schema usually stays as it was: then nothing must be classified again. */
    @Test
    void aRefreshKeepsTheClassificationsUnlessTheSchemaChanged() {
        SqlClassifier classifier = SqlClassifier.forDataSource(db.dataSource());
        String sql = "update retyped set n = 1 where id = 1";
        db.execute("CREATE TABLE retyped (id int NOT NULL, n int)");
        try {
            var keyless = classifier.classify(sql);
            assertThat(keyless.bind(List.of()).accesses())
                    .extracting(Object::toString)
                    .contains("WRITE sql:retyped");
            assertThat(classifier.classify("select * from items").notes()).isNotEmpty(); // a name not on the path

            classifier.refreshSchema();
            assertThat(classifier.classify(sql))
                    .as("nothing changed: the same classification")
                    .isSameAs(keyless);

            db.execute("ALTER TABLE retyped ADD PRIMARY KEY (id)");
            classifier.refreshSchema();
            assertThat(classifier.classify(sql).bind(List.of()).accesses())
                    .extracting(Object::toString)
                    .contains("WRITE sql:retyped:(1)");
        } finally {
            db.execute("DROP TABLE retyped");
        }
    }

    @Test
    void aBorrowedConnectionIsLeftOpen() throws SQLException {
        try (Connection c = db.connect()) {
            JdbcTableCatalog borrowed = new JdbcTableCatalog(ConnectionSource.borrowing(() -> c));
            assertThat(borrowed.lookup(TableName.of("accounts"))).isInstanceOf(TableLookup.Found.class);
            assertThat(c.isClosed()).isFalse();
        }
    }

    @Test
    void schemaChangesAreSeenAfterDdlPassesThroughTheClassifier() {
        SqlClassifier classifier = SqlClassifier.forDataSource(db.dataSource());
        assertThat(accesses(classifier, "select * from late where id = 1")).containsExactly("READ sql:*");
        assertThat(classifier.classify("create table late (id int primary key)").changesSchema())
                .isTrue();
        db.execute("create table late (id int primary key)");
        assertThat(accesses(classifier, "select * from late where id = 1")).contains("READ sql:late:(1)");
    }

    private static List<String> accesses(SqlClassifier classifier, String sql, Object... params) {
        List<String> out = new ArrayList<>();
        for (ResourceAccess a : classifier.classify(sql).bind(List.of(params)).accesses()) {
            out.add(a.toString());
        }
        return out;
    }
}
