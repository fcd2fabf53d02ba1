package dev.frontrun.internal.sql.soundness;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Generates valid PostgreSQL statements over the tables below together with their exact footprint:
 * the generator chooses which rows a statement touches and writes the SQL that touches exactly those
 * (or, where the rows depend on data, all rows). Keys come from a tiny domain so that statements
 * collide often.
 * <pre>
 *   t1(id int primary key, v int)        t3(id int primary key, v int)
 *   t2(a int, b int, v int, primary key (a, b))
 *   t4(id serial primary key, v int)     myfunc(int): a function the classifier does not know
 * </pre>
 */
public final class StatementGenerator {

    static final String[] DDL = {
        "CREATE TABLE t1 (id int PRIMARY KEY, v int)",
        "CREATE TABLE t2 (a int, b int, v int, PRIMARY KEY (a, b))",
        "CREATE TABLE t3 (id int PRIMARY KEY, v int)",
        "CREATE TABLE t4 (id serial PRIMARY KEY, v int)",
        "CREATE FUNCTION myfunc(x int) RETURNS int LANGUAGE sql AS 'SELECT x + 1'",
    };

    private static final String[] SINGLE_KEY_TABLES = {"t1", "t3"};

    private final Random random;
    private int fresh;

    public StatementGenerator(Random random) {
        this.random = random;
    }

    private int key() {
        return 1 + random.nextInt(4);
    }

    private int value() {
        return random.nextInt(5);
    }

    private String singleKeyTable() {
        return SINGLE_KEY_TABLES[random.nextInt(2)];
    }

    /** The next statement, valid SQL with a known footprint. */
    public GeneratedStatement next() {
        SqlText s = new SqlText(random);
        int template = random.nextInt(22);
        Footprint truth;
        boolean widenable = false;
        switch (template) {
            case 0, 1, 2 -> {
                String t = singleKeyTable();
                String q = alias(s, "select * from", t);
                s.kw("where");
                Set<String> keys = keyCondition(s, q);
                optionalExtraConjunct(s, q);
                String lock = random.nextInt(4) == 0 ? lockClause() : null;
                if (lock != null) {
                    s.kw(lock);
                    truth = Footprint.none()
                            .read(t, keys.toArray(String[]::new))
                            .write(t, keys.toArray(String[]::new));
                } else {
                    truth = Footprint.none().read(t, keys.toArray(String[]::new));
                    widenable = true;
                }
            }
            case 3 -> {
                String q = alias(s, "select * from", "t2");
                s.kw("where");
                Set<String> keys = compositeCondition(s, q);
                truth = Footprint.none().read("t2", keys.toArray(String[]::new));
                widenable = true;
            }
            case 4 -> {
                String t = random.nextBoolean() ? singleKeyTable() : "t2";
                s.kw("select v from").table(t);
                switch (random.nextInt(5)) {
                    case 0 -> s.kw("where v =").value(value());
                    case 1 -> s.kw("where v >").value(value());
                    case 2 -> s.kw(t.equals("t2") ? "where a >" : "where id >").value(key());
                    case 3 ->
                        s.kw(t.equals("t2") ? "where a = 1 or b =" : "where id = 1 or id =")
                                .value(key());
                    default -> s.kw("order by v");
                }
                truth = Footprint.none().scan(t);
            }
            case 5 -> {
                int k = key();
                String join = random.nextBoolean() ? "join" : "left join";
                s.kw("select x.v, y.v from")
                        .table("t1")
                        .kw("x " + join)
                        .table("t3")
                        .kw("y on y.id = x.id where x.id =")
                        .value(k);
                truth = Footprint.none().read("t1", "" + k).read("t3", "" + k);
            }
            case 6 -> {
                if (random.nextBoolean()) {
                    s.kw("select * from")
                            .table("t1")
                            .kw("where id in (select id from")
                            .table("t3")
                            .kw("where v =")
                            .value(value())
                            .p(")");
                    truth = Footprint.none().scan("t1").scan("t3");
                } else {
                    int k = key();
                    s.kw("select * from")
                            .table("t1")
                            .kw("x where x.id =")
                            .value(k)
                            .kw("and exists (select 1 from")
                            .table("t3")
                            .kw("y where y.id = x.id)");
                    truth = Footprint.none().read("t1", "" + k).read("t3", "" + k);
                }
            }
            case 7 -> {
                int k1 = key();
                int k2 = key();
                String op = random.nextBoolean() ? "union" : random.nextBoolean() ? "union all" : "except";
                s.kw("select id from")
                        .table("t1")
                        .kw("where id =")
                        .value(k1)
                        .kw(op + " select id from")
                        .table("t3")
                        .kw("where id =")
                        .value(k2);
                truth = Footprint.none().read("t1", "" + k1).read("t3", "" + k2);
            }
            case 8, 9 -> {
                String t = singleKeyTable();
                s.kw("update").table(t);
                String q = random.nextBoolean() ? "" : "u.";
                if (!q.isEmpty()) {
                    s.kw("u");
                }
                s.kw("set v =");
                if (random.nextBoolean()) {
                    s.value(value());
                } else {
                    s.kw("v + 1");
                }
                s.kw("where");
                Set<String> keys = keyCondition(s, q);
                optionalExtraConjunct(s, q);
                String[] k = keys.toArray(String[]::new);
                truth = Footprint.none().read(t, k).write(t, k);
                widenable = true;
            }
            case 10 -> {
                String t = singleKeyTable();
                s.kw("update")
                        .table(t)
                        .kw("set v =")
                        .value(value())
                        .kw("where v =")
                        .value(value());
                truth = Footprint.none().scan(t).writeAll(t);
            }
            case 11 -> {
                String t = random.nextBoolean() ? singleKeyTable() : "t2";
                s.kw("delete from").table(t).kw("where");
                Set<String> keys = t.equals("t2") ? compositeCondition(s, "") : keyCondition(s, "");
                String[] k = keys.toArray(String[]::new);
                truth = Footprint.none().read(t, k).write(t, k).changesMembers(t);
                widenable = true;
            }
            case 12 -> {
                String t = singleKeyTable();
                s.kw("delete from").table(t).kw("where v =").value(value());
                truth = Footprint.none().scan(t).writeAll(t).changesMembers(t);
            }
            case 13 -> {
                String t = singleKeyTable();
                boolean keyFirst = random.nextBoolean();
                s.kw("insert into").table(t).kw(keyFirst ? "(id, v) values" : "(v, id) values");
                Set<String> keys = new LinkedHashSet<>();
                int rows = 1 + random.nextInt(2);
                for (int i = 0; i < rows; i++) {
                    int k = key();
                    keys.add("" + k);
                    s.kw(i == 0 ? "(" : ", (");
                    if (keyFirst) {
                        s.value(k).p(",").value(value());
                    } else {
                        s.value(value()).p(",").value(k);
                    }
                    s.p(")");
                }
                truth = Footprint.none().write(t, keys.toArray(String[]::new)).changesMembers(t);
            }
            case 14 -> {
                int a = key() % 2 + 1;
                int b = key() % 2 + 1;
                s.kw("insert into")
                        .table("t2")
                        .kw("(a, b, v) values (")
                        .value(a)
                        .p(",")
                        .value(b)
                        .p(",")
                        .value(value())
                        .p(")");
                truth = Footprint.none().write("t2", a + "," + b).changesMembers("t2");
            }
            case 15 -> {
                s.kw("insert into").table("t4");
                if (random.nextBoolean()) {
                    s.kw("(v) values (").value(value()).p(")");
                } else {
                    s.kw("(id, v) values (default,").value(value()).p(")");
                }
                if (random.nextBoolean()) {
                    s.kw("returning id");
                }
                truth = Footprint.none().insertFresh("t4", "" + (++fresh));
            }
            case 16 -> {
                String t = singleKeyTable();
                int k = key();
                s.kw("insert into")
                        .table(t)
                        .kw("(id, v) values (")
                        .value(k)
                        .p(",")
                        .value(value())
                        .p(")");
                s.kw(random.nextBoolean() ? "on conflict (id) do update set v = excluded.v" : "on conflict do nothing");
                truth = Footprint.none().read(t, "" + k).write(t, "" + k).changesMembers(t);
            }
            case 17 -> {
                String t = singleKeyTable();
                int k = key();
                s.kw("with c1 as (insert into")
                        .table(t)
                        .kw("(id, v) values (")
                        .value(k)
                        .p(",")
                        .value(value())
                        .kw(") returning id) select * from c1");
                truth = Footprint.none().write(t, "" + k).changesMembers(t);
            }
            case 18 -> {
                int k = key();
                s.kw("insert into")
                        .table("t3")
                        .kw("(id, v) select id, v from")
                        .table("t1")
                        .kw("where id =")
                        .value(k);
                truth = Footprint.none().read("t1", "" + k).write("t3", "" + k).changesMembers("t3");
            }
            case 19 -> {
                String t = singleKeyTable();
                s.kw("select myfunc(v) from").table(t).kw("where id =").value(key());
                truth = Footprint.everything();
            }
            case 20 -> {
                String t = singleKeyTable();
                switch (random.nextInt(3)) {
                    case 0 -> {
                        s.kw("select * from")
                                .table(t)
                                .kw("where v =")
                                .value(value())
                                .kw(lockClause());
                        truth = Footprint.none().scan(t).writeAll(t);
                    }
                    case 1 -> {
                        s.kw("merge into")
                                .table("t1")
                                .kw("x using")
                                .table("t3")
                                .kw("y on x.id = y.id when matched then update set v = y.v");
                        truth = Footprint.none()
                                .scan("t1")
                                .writeAll("t1")
                                .changesMembers("t1")
                                .scan("t3");
                    }
                    default -> {
                        s.kw("truncate").table(t);
                        truth = Footprint.none().scan(t).writeAll(t).changesMembers(t);
                    }
                }
            }
            default -> {
                String[] none = {
                    "begin",
                    "commit",
                    "rollback",
                    "savepoint sp1",
                    "release savepoint sp1",
                    "set transaction isolation level serializable",
                    "select 1",
                    "select now()",
                    "select lower('A')",
                    "show search_path",
                    "set application_name = 'x'"
                };
                s.kw(none[random.nextInt(none.length)]);
                truth = Footprint.none();
            }
        }
        String sql = s.sql();
        if (widenable && random.nextInt(6) == 0) {
            sql = sql + " or 1 = 1";
            truth = truth.widened();
        }
        return new GeneratedStatement("template " + template, sql, s.params(), truth, false);
    }

    /** {@code select … from t [x]}; returns the qualifier to use for columns ({@code ""}, {@code "x."} or {@code "t."}). */
    private String alias(SqlText s, String prefix, String table) {
        s.kw(prefix).table(table);
        switch (random.nextInt(3)) {
            case 0 -> {
                s.kw("x");
                return "x.";
            }
            case 1 -> {
                return "";
            }
            default -> {
                s.kw("as x");
                return "x.";
            }
        }
    }

    /** A condition restricting {@code id} to a key set; returns the keys. */
    private Set<String> keyCondition(SqlText s, String q) {
        Set<String> keys = new LinkedHashSet<>();
        switch (random.nextInt(5)) {
            case 0 -> {
                int k = key();
                s.value(k).kw("= " + q + "id");
                keys.add("" + k);
            }
            case 1 -> {
                int n = 1 + random.nextInt(3);
                s.kw(q + "id in (");
                for (int i = 0; i < n; i++) {
                    int k = key();
                    keys.add("" + k);
                    if (i > 0) {
                        s.p(",");
                    }
                    s.value(k);
                }
                s.p(")");
            }
            case 2 -> {
                List<Integer> values = new ArrayList<>();
                int n = 1 + random.nextInt(3);
                for (int i = 0; i < n; i++) {
                    int k = key();
                    values.add(k);
                    keys.add("" + k);
                }
                s.kw(q + "id = any(").array(values.toArray(Integer[]::new)).p(")");
            }
            default -> {
                int k = key();
                s.kw(q + "id =").value(k);
                keys.add("" + k);
            }
        }
        return keys;
    }

    /** A condition restricting t2's (a, b); returns the keys as {@code "a,b"}. */
    private Set<String> compositeCondition(SqlText s, String q) {
        Set<String> keys = new LinkedHashSet<>();
        int a = key() % 2 + 1;
        int b = key() % 2 + 1;
        switch (random.nextInt(4)) {
            case 0 -> {
                s.kw(q + "b =").value(b).kw("and " + q + "a =").value(a);
                keys.add(a + "," + b);
            }
            case 1 -> {
                s.kw("(" + q + "a, " + q + "b) = (").value(a).p(",").value(b).p(")");
                keys.add(a + "," + b);
            }
            case 2 -> {
                int a2 = key() % 2 + 1;
                int b2 = key() % 2 + 1;
                s.kw("(" + q + "a, " + q + "b) in ((")
                        .value(a)
                        .p(",")
                        .value(b)
                        .p("), (")
                        .value(a2)
                        .p(",")
                        .value(b2)
                        .p("))");
                keys.add(a + "," + b);
                keys.add(a2 + "," + b2);
            }
            default -> {
                s.kw(q + "a in (1, 2) and " + q + "b =").value(b);
                keys.add("1," + b);
                keys.add("2," + b);
            }
        }
        return keys;
    }

    /** Sometimes a further conjunct, which narrows nothing the truth relies on. */
    private void optionalExtraConjunct(SqlText s, String q) {
        switch (random.nextInt(5)) {
            case 0 -> s.kw("and " + q + "v =").value(value());
            case 1 -> s.kw("and 1 = 1");
            case 2 -> s.kw("and (" + q + "v is not null or " + q + "v is null)");
            default -> {}
        }
    }

    private String lockClause() {
        String[] locks = {
            "for update",
            "for no key update",
            "for share",
            "for key share",
            "for update nowait",
            "for update skip locked"
        };
        return locks[random.nextInt(locks.length)];
    }
}
