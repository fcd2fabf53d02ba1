package dev.frontrun.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/** Schema hints belong to the data source they were wrapped with, not to the JVM. */
class SchemaHintsTest {

    @Test
    void aTableIsFoundBareQualifiedQuotedOrInAnyCase() {
        SchemaHints hints = new SchemaHints();
        hints.register("owners", "Owner", List.of("id"));

        assertThat(hints.entityOf("OWNERS")).contains(new SchemaHints.Entity("Owner", List.of("id")));
        assertThat(hints.entityOf("public.owners"))
                .map(SchemaHints.Entity::name)
                .contains("Owner");
        assertThat(hints.entityOf("\"Owners\"")).map(SchemaHints.Entity::name).contains("Owner");
        assertThat(hints.entityOf("pets")).isEmpty();
    }

    @Test
    void twoInstancesKeepTheirOwnMappingOfTheSameTable() {
        SchemaHints first = new SchemaHints();
        SchemaHints second = new SchemaHints();
        first.register("things", "Gadget", List.of("id"));
        second.register("things", "Widget", List.of("id"));

        assertThat(first.entityOf("things")).map(SchemaHints.Entity::name).contains("Gadget");
        assertThat(second.entityOf("things")).map(SchemaHints.Entity::name).contains("Widget");
    }

    @Test
    void aWrappedDataSourceCarriesTheHintsItWasWrappedWith() {
        SchemaHints hints = new SchemaHints();
        DataSource wrapped = FrontrunDataSource.wrap(new PGSimpleDataSource(), hints);

        assertThat(FrontrunDataSource.schemaHints(wrapped)).containsSame(hints);
        assertThat(FrontrunDataSource.wrap(wrapped, new SchemaHints()))
                .as("wrapping twice keeps the first hints")
                .isSameAs(wrapped);
        assertThat(FrontrunDataSource.schemaHints(wrapped)).containsSame(hints);
    }

    @Test
    void wrappingWithoutHintsGivesEachDataSourceFreshEmptyOnes() {
        DataSource a = FrontrunDataSource.wrap(new PGSimpleDataSource());
        DataSource b = FrontrunDataSource.wrap(new PGSimpleDataSource());

        SchemaHints hintsOfA = FrontrunDataSource.schemaHints(a).orElseThrow();
        assertThat(hintsOfA.entityOf("owners")).isEmpty();
        hintsOfA.register("owners", "Owner", List.of("id"));
        assertThat(FrontrunDataSource.schemaHints(b).orElseThrow().entityOf("owners"))
                .isEmpty();
        assertThat(FrontrunDataSource.schemaHints(new PGSimpleDataSource()))
                .as("not a Frontrun proxy")
                .isEmpty();
    }
}
