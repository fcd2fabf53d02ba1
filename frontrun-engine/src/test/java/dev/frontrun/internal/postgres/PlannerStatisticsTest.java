package dev.frontrun.internal.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PlannerStatisticsTest {

    /** Before the November 2024 minors, an UPDATE of a pg_class row could make a concurrent vacuum's in-place update get lost. */
    @Test
    void statisticsArePutBackOnlyWhereAnUpdateOfPgClassCannotLoseAVacuumsInPlaceUpdate() {
        assertThat(PlannerStatistics.safeToPutBack(170000)).isFalse();
        assertThat(PlannerStatistics.safeToPutBack(170001)).isTrue();
        assertThat(PlannerStatistics.safeToPutBack(170006)).isTrue();
        assertThat(PlannerStatistics.safeToPutBack(160004)).isFalse();
        assertThat(PlannerStatistics.safeToPutBack(160005)).isTrue();
        assertThat(PlannerStatistics.safeToPutBack(150008)).isFalse();
        assertThat(PlannerStatistics.safeToPutBack(150009)).isTrue();
        assertThat(PlannerStatistics.safeToPutBack(120020)).isFalse();
        assertThat(PlannerStatistics.safeToPutBack(120021)).isTrue();
        assertThat(PlannerStatistics.safeToPutBack(110022))
                .as("an unsupported major")
                .isFalse();
        assertThat(PlannerStatistics.safeToPutBack(180000)).isTrue();
    }
}
