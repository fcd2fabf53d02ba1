package dev.frontrun.internal.sql.resource;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.internal.sql.syntax.TableName;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Resource ids as values: how they render for the engine, how they overlap for the anomaly classifier, how rows read for people. */
class ResourceIdTest {

    private static final TableName OWNERS = TableName.of("public", "owners");

    @Test
    void resourceIdsRenderAsTheEngineComparesThem() {
        assertThat(ResourceId.row(OWNERS, "(1)").render()).isEqualTo("sql:owners:(1)");
        assertThat(ResourceId.table(OWNERS).render()).isEqualTo("sql:owners");
        assertThat(ResourceId.members(OWNERS).render()).isEqualTo("sql:owners#members");
        assertThat(ResourceId.ENDPOINT.render()).isEqualTo("sql:*");
        assertThat(ResourceId.row(TableName.of("billing", "invoices"), "(7,'a')")
                        .render())
                .isEqualTo("sql:billing.invoices:(7,'a')");
        assertThat(ResourceId.row(TableName.of("public", "we:ird"), "(1)").render())
                .isEqualTo("sql:\"we:ird\":(1)");
        assertThat(ResourceId.sequence(TableName.of("public", "owners_seq")).render())
                .isEqualTo("sql:owners_seq");
    }

    @Test
    void resourcesOverlapByRowTableAndMembership() {
        ResourceId row = ResourceId.row(OWNERS, "(1)");
        ResourceId other = ResourceId.row(OWNERS, "(2)");
        ResourceId table = ResourceId.table(OWNERS);
        ResourceId members = ResourceId.members(OWNERS);
        assertThat(row.overlaps(row)).isTrue();
        assertThat(row.overlaps(other)).isFalse();
        assertThat(row.overlaps(table)).isTrue();
        assertThat(table.overlaps(other)).isTrue();
        assertThat(members.overlaps(table)).isFalse();
        assertThat(members.overlaps(members)).isTrue();
        assertThat(row.overlaps(ResourceId.row(TableName.of("public", "visits"), "(1)")))
                .isFalse();
        assertThat(ResourceId.ENDPOINT.overlaps(row)).isTrue();
    }

    @Test
    void rowsReadForPeopleWithTheirKeyColumns() {
        assertThat(RowRef.row(ResourceId.row(OWNERS, "(1)"), List.of("id"), List.of("1"))
                        .display())
                .isEqualTo("owners[id=1]");
        assertThat(RowRef.row(ResourceId.row(OWNERS, "(7,2)"), List.of("a", "b"), List.of("7", "2"))
                        .display())
                .isEqualTo("owners[a=7,b=2]");
        assertThat(RowRef.row(ResourceId.row(OWNERS, "(@t0.1)"), List.of("a", "b"), List.of("@t0.1"))
                        .display())
                .isEqualTo("owners[(a,b)=@t0.1]");
        assertThat(RowRef.of(ResourceId.table(OWNERS)).display()).isEqualTo("owners[*]");
        assertThat(RowRef.sequence(ResourceId.sequence(TableName.of("public", "s")), false)
                        .display())
                .isEqualTo("s[nextval]");
        assertThat(RowRef.of(ResourceId.ENDPOINT).display()).isEqualTo("*");
    }
}
