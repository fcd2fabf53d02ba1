package dev.frontrun.internal.sql;

import dev.frontrun.internal.sql.schema.FixedTableCatalog;
import dev.frontrun.internal.sql.schema.ForeignKey;
import dev.frontrun.internal.sql.schema.KeyType;
import dev.frontrun.internal.sql.schema.ReferentialAction;
import dev.frontrun.internal.sql.schema.RelationKind;
import dev.frontrun.internal.sql.schema.TableInfo;
import dev.frontrun.internal.sql.syntax.TableName;
import java.util.List;

/**
 * The schema the SQL tests use: Spring PetClinic's tables plus a composite key, a non-public schema,
 * a uuid key, a table with a unique column, a sequence and a view. The same schema exists as DDL (for
 * tests against PostgreSQL) and as a {@link FixedTableCatalog} (for unit tests), and a test checks
 * the two agree.
 */
public final class PetClinicSchema {

    private PetClinicSchema() {}

    public static final String[] DDL = {
        "CREATE TABLE owners (id serial PRIMARY KEY, first_name varchar(30), last_name varchar(30),"
                + " address varchar(255), city varchar(80), telephone varchar(20), version int DEFAULT 0)",
        "CREATE TABLE types (id serial PRIMARY KEY, name varchar(80))",
        "CREATE TABLE pets (id serial PRIMARY KEY, name varchar(30), birth_date date,"
                + " type_id int NOT NULL REFERENCES types (id), owner_id int REFERENCES owners (id))",
        "CREATE TABLE visits (id serial PRIMARY KEY, pet_id int REFERENCES pets (id) ON DELETE CASCADE,"
                + " visit_date date, description varchar(255))",
        "CREATE TABLE vets (id serial PRIMARY KEY, first_name varchar(30), last_name varchar(30))",
        "CREATE TABLE specialties (id serial PRIMARY KEY, name varchar(80))",
        "CREATE TABLE vet_specialties (vet_id int NOT NULL REFERENCES vets (id),"
                + " specialty_id int NOT NULL REFERENCES specialties (id), PRIMARY KEY (vet_id, specialty_id))",
        "CREATE TABLE order_lines (order_id int, line_no int, quantity int, PRIMARY KEY (order_id, line_no))",
        "CREATE TABLE accounts (id int PRIMARY KEY, balance int NOT NULL)",
        "CREATE TABLE users (id bigint PRIMARY KEY, email text UNIQUE)",
        "CREATE TABLE audit_log (at timestamp, message text)",
        "CREATE SCHEMA billing",
        "CREATE TABLE billing.invoices (id uuid PRIMARY KEY, amount numeric(10,2), customer text)",
        "CREATE SEQUENCE owners_seq INCREMENT BY 50",
        "CREATE VIEW owner_names AS SELECT id, first_name, last_name FROM owners",
    };

    public static TableName pub(String name) {
        return new TableName(TableName.DEFAULT_SCHEMA, name);
    }

    private static ForeignKey fk(String child, String childColumn, String parent, ReferentialAction onDelete) {
        return new ForeignKey(
                pub(child), List.of(childColumn), pub(parent), List.of("id"), onDelete, ReferentialAction.NO_ACTION);
    }

    public static final ForeignKey PETS_TYPES = fk("pets", "type_id", "types", ReferentialAction.NO_ACTION);
    public static final ForeignKey PETS_OWNERS = fk("pets", "owner_id", "owners", ReferentialAction.NO_ACTION);
    public static final ForeignKey VISITS_PETS = fk("visits", "pet_id", "pets", ReferentialAction.CASCADE);
    public static final ForeignKey VET_SPECIALTIES_VETS =
            fk("vet_specialties", "vet_id", "vets", ReferentialAction.NO_ACTION);
    public static final ForeignKey VET_SPECIALTIES_SPECIALTIES =
            fk("vet_specialties", "specialty_id", "specialties", ReferentialAction.NO_ACTION);

    /** The tables as a catalog would describe them, foreign keys declared on the referencing side. */
    public static List<TableInfo> tables() {
        return List.of(
                TableInfo.table("owners").key("id", KeyType.INTEGER).build(),
                TableInfo.table("types").key("id", KeyType.INTEGER).build(),
                TableInfo.table("pets")
                        .key("id", KeyType.INTEGER)
                        .foreignKey(PETS_TYPES)
                        .foreignKey(PETS_OWNERS)
                        .build(),
                TableInfo.table("visits")
                        .key("id", KeyType.INTEGER)
                        .foreignKey(VISITS_PETS)
                        .build(),
                TableInfo.table("vets").key("id", KeyType.INTEGER).build(),
                TableInfo.table("specialties").key("id", KeyType.INTEGER).build(),
                TableInfo.table("vet_specialties")
                        .keyWithoutGenerator("vet_id", KeyType.INTEGER)
                        .keyWithoutGenerator("specialty_id", KeyType.INTEGER)
                        .foreignKey(VET_SPECIALTIES_VETS)
                        .foreignKey(VET_SPECIALTIES_SPECIALTIES)
                        .build(),
                TableInfo.table("order_lines")
                        .keyWithoutGenerator("order_id", KeyType.INTEGER)
                        .keyWithoutGenerator("line_no", KeyType.INTEGER)
                        .build(),
                TableInfo.table("accounts")
                        .keyWithoutGenerator("id", KeyType.INTEGER)
                        .build(),
                TableInfo.table("users")
                        .keyWithoutGenerator("id", KeyType.INTEGER)
                        .unique("email")
                        .build(),
                TableInfo.table("audit_log").build(),
                TableInfo.table("billing", "invoices")
                        .keyWithoutGenerator("id", KeyType.UUID)
                        .build(),
                TableInfo.table("owners_seq").kind(RelationKind.SEQUENCE).build(),
                TableInfo.table("owner_names").kind(RelationKind.VIEW).build());
    }

    public static FixedTableCatalog catalog() {
        return new FixedTableCatalog(List.of(TableName.DEFAULT_SCHEMA), tables());
    }

    public static SqlClassifier classifier() {
        return new SqlClassifier(catalog());
    }
}
