package io.github.s3mergetree.source.s3.format.parquet;

import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;

/**
 * A column chunk's pages without its data pages that hold no value (num_values 0).
 *
 * <p>Writers emit such pages: pyarrow for repeated columns when a write batch ends on a record
 * boundary with the page already full (small {@code data_page_size}, v1 and v2 pages), parquet-mr
 * 1.12 for columns of NULLs. They are valid, but parquet-mr's column reader does not expect them:
 * having read a page it reads the next levels without checking that the page has any, and fails
 * with "Reading past RLE/BitPacking stream" (apache/parquet-java#1555). A page without values
 * carries no levels and no values, so dropping it changes nothing else; both decoders read their
 * pages through this reader. (Page checksums are verified when the chunk is read, before this.)
 */
final class NonEmptyPageReader implements PageReader {
    private final PageReader pages;

    private NonEmptyPageReader(PageReader pages) {
        this.pages = pages;
    }

    static PageReader of(PageReader pages) {
        return pages instanceof NonEmptyPageReader ? pages : new NonEmptyPageReader(pages);
    }

    @Override
    public DictionaryPage readDictionaryPage() {
        return pages.readDictionaryPage();
    }

    @Override
    public long getTotalValueCount() {
        return pages.getTotalValueCount();
    }

    /** The next data page holding at least one value, or null after the last. */
    @Override
    public DataPage readPage() {
        DataPage page;
        do {
            page = pages.readPage();
        } while (page != null && page.getValueCount() == 0);
        return page;
    }
}
