package dev.frontrun.internal.sql;

import dev.frontrun.internal.sql.bind.StatementAccesses;
import dev.frontrun.internal.sql.schema.FixedTableCatalog;
import dev.frontrun.internal.sql.schema.ForeignKey;
import dev.frontrun.internal.sql.schema.KeyColumn;
import dev.frontrun.internal.sql.schema.KeyType;
import dev.frontrun.internal.sql.schema.ReferentialAction;
import dev.frontrun.internal.sql.schema.RelationKind;
import dev.frontrun.internal.sql.schema.TableInfo;
import dev.frontrun.internal.sql.syntax.TableName;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Classifies a few typical statements on a background thread when the first data source is wrapped. The first
 * statement classified in a JVM otherwise pays about 100 ms of class loading and interpretation of the parser,
 * inside the first run of the first exploration (Spring Boot's {@code BackgroundPreinitializer} does the same for
 * its own first uses). It reads no database and keeps nothing: a failure only means that the first statement
 * pays after all. Once per JVM, as what it warms (loaded classes, compiled code) is the JVM's.
 */
public final class ParserWarmUp {

    private static final AtomicBoolean STARTED = new AtomicBoolean();

    /** What an ORM sends first: a join on an id, an insert, an update, a delete, a locking read. */
    private static final List<String> STATEMENTS = List.of(
            "select a1_0.id,a1_0.name,b1_0.a_id,b1_0.id,b1_0.name from warm_a a1_0 left join warm_b b1_0"
                    + " on a1_0.id=b1_0.a_id where a1_0.id=?",
            "insert into warm_b (a_id,name) values (?,?)",
            "update warm_a set name=? where id=?",
            "delete from warm_b where id=?",
            "select b1_0.id from warm_b b1_0 where b1_0.a_id=? order by b1_0.name for update");

    private ParserWarmUp() {}

    /** Starts the warm-up unless it has started before in this JVM. */
    public static void startOnce() {
        if (!STARTED.compareAndSet(false, true)) {
            return;
        }
        // in the root group: never one of an exploration's thread groups, whoever wraps the first data source
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread thread = new Thread(root, ParserWarmUp::run, "frontrun-sql-warm-up");
        thread.setDaemon(true);
        thread.setPriority(Thread.MIN_PRIORITY);
        thread.start();
    }

    private static void run() {
        try {
            classifyAll();
        } catch (RuntimeException | StackOverflowError e) {
            // the first real statement pays for what was not warmed
        }
    }

    /** The warm-up's work, bound to its parameters. */
    static List<StatementAccesses> classifyAll() {
        TableName a = TableName.of("public", "warm_a");
        TableName b = TableName.of("public", "warm_b");
        List<KeyColumn> id = List.of(new KeyColumn("id", KeyType.INTEGER, true));
        ForeignKey bToA = new ForeignKey(
                b, List.of("a_id"), a, List.of("id"), ReferentialAction.NO_ACTION, ReferentialAction.NO_ACTION);
        SqlClassifier classifier = new SqlClassifier(
                new FixedTableCatalog(
                        List.of("public"),
                        List.of(
                                new TableInfo(
                                        a,
                                        RelationKind.TABLE,
                                        new TableInfo.Keys(id, "warm_a_pkey", List.of(), List.of(), List.of()),
                                        Set.of()),
                                new TableInfo(
                                        b,
                                        RelationKind.TABLE,
                                        new TableInfo.Keys(id, "warm_b_pkey", List.of(bToA), List.of(), List.of()),
                                        Set.of()))),
                0);
        return STATEMENTS.stream()
                .map(sql -> classifier.classify(sql).bind(List.of(1, 1)))
                .toList();
    }
}
