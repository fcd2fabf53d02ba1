package dev.frontrun.internal.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.frontrun.Result;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens a generated report in headless Chromium and checks that the browser really renders the
 * timeline: a non-blank screenshot showing the lanes and statement boxes, and a DOM with the key
 * elements. Needs Debian's {@code chromium} at {@code /usr/bin/chromium} (or {@code -Dfrontrun.chromium=…});
 * where there is none, the test is skipped with a message saying so. Uses no network.
 */
class HtmlReportChromiumTest {

    private static final Path CHROMIUM = Path.of(System.getProperty("frontrun.chromium", "/usr/bin/chromium"));

    @Test
    void chromiumRendersTheTimelineOfAGeneratedReport(@TempDir Path dir) throws Exception {
        boolean available = Files.isExecutable(CHROMIUM);
        if (!available) {
            System.err.println("HtmlReportChromiumTest SKIPPED: no Chromium binary at " + CHROMIUM
                    + " (apt-get install -y chromium, or -Dfrontrun.chromium=/path/to/chromium)");
        }
        assumeTrue(available, "no Chromium binary at " + CHROMIUM + ": the report was not checked in a browser"
                + " (install it with apt-get install -y chromium, or point -Dfrontrun.chromium at one)");

        Result result = HtmlReportTest.twoDeposits(dir.resolve("reports")).run();
        Path report = result.report().orElseThrow();

        Path png = dir.resolve("report.png");
        Browser shot = chromium(dir.resolve("profile-1"), "--screenshot=" + png, "--window-size=1400,900",
                report.toUri().toString());
        assertThat(png).as("Chromium wrote a screenshot; its output:\n%s", shot.output).exists();
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(1400);
        assertThat(image.getHeight()).isEqualTo(900);
        Pixels pixels = Pixels.of(image);
        assertThat(pixels.distinctColours).as("not blank").isGreaterThan(50);
        assertThat(pixels.nonWhiteShare).as("share of non-white pixels").isGreaterThan(0.10);
        assertThat(pixels.near(0xf3f5f8)).as("lane backgrounds (#f3f5f8) on screen").isGreaterThan(20_000);
        assertThat(pixels.near(0xeef4ff) + pixels.near(0xfff4e6)).as("read and write statement boxes on screen")
                .isGreaterThan(5_000);
        assertThat(pixels.near(0xfff1f0)).as("the red FAILS header").isGreaterThan(10_000);

        Browser dom = chromium(dir.resolve("profile-2"), "--dump-dom", report.toUri().toString());
        assertThat(dom.output).contains("<svg id=\"timeline\"", "data-thread=\"alice\"", "data-thread=\"bob\"",
                "<svg id=\"dependency-graph\"", "id=\"explanation\"", "edge rw cycle", "edge ww cycle");
        assertThat(dom.output.split("<g class=\"step ", -1).length - 1).isEqualTo(result.trace().size());
    }

    private record Browser(int exit, String output) {
    }

    private static Browser chromium(Path profile, String... args) throws IOException, InterruptedException {
        Files.createDirectories(profile);
        List<String> command = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-dev-shm-usage", "--hide-scrollbars", "--user-data-dir=" + profile));
        command.addAll(List.of(args));
        Path out = profile.resolveSibling(profile.getFileName() + ".out");
        Path err = profile.resolveSibling(profile.getFileName() + ".err");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("Chromium did not finish within 90 s: " + command + "\n"
                    + Files.readString(err, StandardCharsets.UTF_8));
        }
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        return new Browser(process.exitValue(), stdout.isEmpty() ? stderr : stdout);
    }

    /** Colour statistics of a screenshot. */
    private record Pixels(int[] rgb, int distinctColours, double nonWhiteShare) {
        static Pixels of(BufferedImage image) {
            int[] rgb = image.getRGB(0, 0, image.getWidth(), image.getHeight(), null, 0, image.getWidth());
            java.util.Set<Integer> colours = new java.util.HashSet<>();
            int nonWhite = 0;
            for (int p : rgb) {
                colours.add(p & 0xffffff);
                if ((p & 0xffffff) != 0xffffff) {
                    nonWhite++;
                }
            }
            return new Pixels(rgb, colours.size(), nonWhite / (double) rgb.length);
        }

        /** Pixels within a small distance of {@code colour}. */
        int near(int colour) {
            int n = 0;
            for (int p : rgb) {
                int dr = ((p >> 16) & 0xff) - ((colour >> 16) & 0xff);
                int dg = ((p >> 8) & 0xff) - ((colour >> 8) & 0xff);
                int db = (p & 0xff) - (colour & 0xff);
                if (Math.abs(dr) <= 3 && Math.abs(dg) <= 3 && Math.abs(db) <= 3) {
                    n++;
                }
            }
            return n;
        }
    }
}
