package dev.frontrun.internal.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The writer escapes every text and attribute value, and keeps the markup balanced. */
class HtmlWriterTest {

    @Test
    void textCannotOpenElements() {
        String sql = "SELECT '<script>alert(1)</script>' FROM t WHERE a < 1 && b > 2";
        String html = new HtmlWriter().element("pre", sql).finish();

        assertThat(html)
                .isEqualTo("<pre>SELECT &#39;&lt;script&gt;alert(1)&lt;/script&gt;&#39; FROM t WHERE a &lt; 1"
                        + " &amp;&amp; b &gt; 2</pre>");
    }

    @Test
    void attributeValuesCannotEndTheAttribute() {
        String thread = "o'brien \"the\" <thread>";
        String html = new HtmlWriter()
                .open("g", "class", "lane", "data-thread", thread)
                .close()
                .finish();

        assertThat(html).isEqualTo("<g class=\"lane\" data-thread=\"o&#39;brien &quot;the&quot; &lt;thread&gt;\"></g>");
    }

    @Test
    void controlCharactersBecomeSpacesButLineBreaksStay() {
        assertThat(HtmlWriter.escape("a\u0000b\u001bc\nd\te")).isEqualTo("a b c\nd\te");
        assertThat(HtmlWriter.escape(null)).isEmpty();
    }

    @Test
    void nullAttributesAreLeftOutAndCoordinatesKeepOneDecimal() {
        String html = new HtmlWriter()
                .empty("rect", "class", null, "x", 12.0, "y", 3.25, "width", -0.01, "rx", 5)
                .finish();

        assertThat(html).isEqualTo("<rect x=\"12\" y=\"3.3\" width=\"0\" rx=\"5\"/>");
    }

    @Test
    void namesMustBeIdentifiersSoDataCannotBecomeATagOrAnAttribute() {
        assertThatThrownBy(() -> new HtmlWriter().open("p onclick=alert(1)"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HtmlWriter().open("p", "x\" onload=\"y", "1"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HtmlWriter().open("p", "class")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theDocumentMustBeBalanced() {
        assertThatThrownBy(() ->
                        new HtmlWriter().open("section").open("h2").close().finish())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("section");
        assertThatThrownBy(() -> new HtmlWriter().close()).isInstanceOf(IllegalStateException.class);
        assertThat(new HtmlWriter()
                        .open("ul")
                        .element("li", 1)
                        .element("li", 2)
                        .close()
                        .finish())
                .isEqualTo("<ul><li>1</li><li>2</li></ul>");
    }
}
