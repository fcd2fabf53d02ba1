package dev.frontrun.spring.it;

import static dev.frontrun.spring.FrontrunAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.frontrun.Result;
import dev.frontrun.spring.app.Comment;
import dev.frontrun.spring.app.CommentRepository;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Ids from a sequence in blocks Hibernate keeps in memory: every execution starts with the sequence put back and
 * the block emptied, so it takes the same ids as the first, and after the explorations none is taken twice.
 */
class SequenceIdentifiersTest extends RaceAppTestSupport {

    @Autowired
    private CommentRepository comments;

    @Test
    void everyExecutionTakesTheSameIdsAndNoneIsTakenTwiceAfterwards() {
        comments.save(new Comment("before"));
        for (int exploration = 1; exploration <= 2; exploration++) {
            Set<List<Long>> idsSeen = ConcurrentHashMap.newKeySet();
            Result result = races.explore()
                    .thread("comment-1", () -> comment("one", 3))
                    .thread("comment-2", () -> comment("two", 3))
                    .invariant(() -> {
                        idsSeen.add(jdbc.queryForList("SELECT id FROM comments ORDER BY id", Long.class));
                        return true;
                    })
                    .run();

            assertThat(result).hasNoRace().isExhausted();
            org.assertj.core.api.Assertions.assertThat(result.executions()).isGreaterThan(1);
            org.assertj.core.api.Assertions.assertThat(idsSeen)
                    .as("exploration %d: the ids of every execution", exploration)
                    .hasSize(1);
        }
        assertThatCode(() -> comment("after", 20)).as("no id taken twice").doesNotThrowAnyException();
    }

    private void comment(String text, int times) {
        for (int i = 0; i < times; i++) {
            comments.save(new Comment(text));
        }
    }
}
