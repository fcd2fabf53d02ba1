package dev.frontrun.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Access;
import dev.frontrun.ResourceAccess;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the table makes of commands whose accesses the server's key specs do not tell. */
class CommandTableTest {

    private static List<ResourceAccess> accesses(int db, String name, String... args) {
        return Accesses.of(CommandTable.classify(db, Command.of(name, args)));
    }

    @Test
    void aKeyIsAResourceOfItsDatabaseInsideItsKeyspace() {
        assertThat(accesses(3, "INCR", "hits"))
                .containsExactly(
                        ResourceAccess.write("redis:3:hits"), new ResourceAccess("redis:3", Access.WEAK_WRITE));
        assertThat(accesses(0, "GET", "hits"))
                .containsExactly(ResourceAccess.read("redis:0:hits"), new ResourceAccess("redis:0", Access.WEAK_READ));
    }

    @Test
    void anExpiryIsPartOfItsKey() {
        assertThat(accesses(0, "EXPIRE", "k", "10")).contains(ResourceAccess.write("redis:0:k"));
        assertThat(accesses(0, "PTTL", "k")).contains(ResourceAccess.read("redis:0:k"));
    }

    @Test
    void keyspaceCommandsTouchEveryKey() {
        assertThat(accesses(0, "KEYS", "*")).containsExactly(ResourceAccess.read("redis:0"));
        assertThat(accesses(0, "SCAN", "0")).containsExactly(ResourceAccess.read("redis:0"));
        assertThat(accesses(0, "DBSIZE")).containsExactly(ResourceAccess.read("redis:0"));
        assertThat(accesses(1, "FLUSHDB")).containsExactly(ResourceAccess.write("redis:1"));
        assertThat(accesses(0, "FLUSHALL")).contains(ResourceAccess.write("redis:0"), ResourceAccess.write("redis:15"));
    }

    @Test
    void anUnknownCommandWritesTheWholeKeyspace() {
        Effect effect = CommandTable.classify(2, Command.of("MYMODULE.DO", "k"));
        assertThat(effect.coarse()).isTrue();
        assertThat(Accesses.of(effect)).containsExactly(ResourceAccess.write("redis:2"));
        assertThat(CommandTable.classify(0, Command.of("CONFIG", "SET", "maxmemory", "1"))
                        .coarse())
                .isTrue();
    }

    @Test
    void scriptsWriteTheirDeclaredKeysAndLookUpTheCache() {
        List<ResourceAccess> eval = accesses(0, "EVAL", "return 1", "2", "a", "b", "x");
        assertThat(eval)
                .contains(ResourceAccess.write("redis:0:a"), ResourceAccess.write("redis:0:b"))
                .noneMatch(a -> a.resource().equals("redis:0:x"));
        String sha = "e0e1f9fabfc9d4800c877a703b823ac0578ff8db"; // SHA-1 of "return 1"
        assertThat(eval).contains(new ResourceAccess("redis:script:" + sha, Access.WEAK_WRITE));
        assertThat(accesses(0, "EVALSHA", sha, "1", "a"))
                .contains(ResourceAccess.read("redis:script:" + sha), ResourceAccess.write("redis:0:a"));
        assertThat(accesses(0, "EVAL_RO", "return 1", "1", "a")).contains(ResourceAccess.read("redis:0:a"));
        assertThat(accesses(0, "FCALL", "f", "1", "a"))
                .contains(ResourceAccess.write("redis:0:a"), ResourceAccess.read("redis:functions"));
    }

    @Test
    void channelsAreResourcesOfTheirOwn() {
        assertThat(accesses(0, "PUBLISH", "news", "hi"))
                .containsExactly(
                        ResourceAccess.write("redis:channel:news"),
                        new ResourceAccess("redis:channels", Access.WEAK_WRITE));
        assertThat(accesses(0, "SUBSCRIBE", "news")).contains(ResourceAccess.read("redis:channel:news"));
        assertThat(accesses(0, "SPUBLISH", "news", "hi")).contains(ResourceAccess.write("redis:channel:news"));
        assertThat(accesses(0, "PSUBSCRIBE", "n*")).containsExactly(ResourceAccess.read("redis:channels"));
    }

    @Test
    void storesWriteTheirDestinationAndReadTheirSources() {
        Effect effect = CommandTable.classify(0, Command.of("ZUNIONSTORE", "d", "2", "a", "b", "WEIGHTS", "1", "2"));
        assertThat(effect.writes()).extracting(KeyRef::name).containsExactly("d");
        assertThat(effect.reads()).extracting(KeyRef::name).containsExactly("a", "b");
        assertThat(accesses(0, "MOVE", "k", "4")).contains(ResourceAccess.write("redis:4:k"));
        assertThat(accesses(0, "COPY", "a", "b", "DB", "2")).contains(ResourceAccess.write("redis:2:b"));
        assertThat(accesses(0, "SORT", "l", "BY", "w_*")).contains(ResourceAccess.read("redis:0"));
        assertThat(accesses(0, "SORT", "l", "BY", "nosort")).doesNotContain(ResourceAccess.read("redis:0"));
    }

    @Test
    void connectionCommandsTouchNothing() {
        assertThat(CommandTable.classify(0, Command.of("PING")).touchesNothing())
                .isTrue();
        assertThat(CommandTable.classify(0, Command.of("CLIENT", "SETINFO", "LIB-NAME", "x"))
                        .touchesNothing())
                .isTrue();
        assertThat(CommandTable.classify(0, Command.of("SELECT", "2")).control())
                .isEqualTo(Effect.Control.SELECT);
    }

    @Test
    void binaryKeysStayDistinctAndReadable() {
        assertThat(new KeyRef(0, new byte[] {'a', 0, (byte) 0xff}).resource()).isEqualTo("redis:0:a\\x00\\xff");
        assertThat(new KeyRef(0, "a\\x00".getBytes(java.nio.charset.StandardCharsets.UTF_8)).resource())
                .isEqualTo("redis:0:a\\x5cx00");
    }
}
