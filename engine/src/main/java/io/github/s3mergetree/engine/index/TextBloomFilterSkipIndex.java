package io.github.s3mergetree.engine.index;

import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.ddl.SkipIndexDefinition;
import io.github.s3mergetree.engine.expr.EvaluationContext;
import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import java.util.List;

/**
 * {@code TYPE tokenbf_v1(size, hashes, seed)} and {@code TYPE ngrambf_v1(n, size, hashes, seed)}:
 * per index granule and index column one bloom filter of {@code size} bytes holding the tokens
 * ({@link TextTokenizer}) of every value (ClickHouse's {@code MergeTreeIndexBloomFilterText}, file
 * {@code .idx}).
 *
 * <p>As ClickHouse: each token sets {@code hashes} bits {@code h1 + i * h2 + i * i} of the filter
 * (h1, h2 CityHash64WithSeed of the token with {@code seed} and a seed derived from it); a String
 * or LowCardinality(String) contributes its bytes, a FixedString all its N bytes, an Array every
 * element. A granule is written as the filters' bytes, one column after the other.
 */
final class TextBloomFilterSkipIndex extends SkipIndex {
    private final TextTokenizer tokenizer;
    private final long sizeBytes;
    private final int hashes;
    private final long seed;

    TextBloomFilterSkipIndex(SkipIndexDefinition definition, EvaluationContext evaluation) {
        super(definition, evaluation);
        List<String> args = definition.arguments();
        int first;
        if (definition.type().equals("ngrambf_v1")) {
            tokenizer = TextTokenizer.ngrams(Integer.parseInt(args.get(0)));
            first = 1;
        } else {
            tokenizer = TextTokenizer.splitByNonAlpha();
            first = 0;
        }
        this.sizeBytes = Long.parseLong(args.get(first));
        this.hashes = Integer.parseInt(args.get(first + 1));
        this.seed = Long.parseUnsignedLong(args.get(first + 2));
    }

    @Override
    public String fileExtension() {
        return ".idx";
    }

    @Override
    public Aggregator newAggregator() {
        return new TextAggregator();
    }

    private final class TextAggregator implements Aggregator {
        private final List<DataType> types = types();
        private final BloomFilterBits[] filters = new BloomFilterBits[types.size()];
        private boolean hasElements;

        TextAggregator() {
            for (int c = 0; c < filters.length; c++) {
                filters[c] = new BloomFilterBits(sizeBytes);
            }
        }

        @Override
        public boolean isEmpty() {
            return !hasElements;
        }

        @Override
        public void update(List<Column> columns, int from, int to) {
            for (int c = 0; c < filters.length; c++) {
                BloomFilterBits filter = filters[c];
                TextTokenizer.TokenSink sink =
                        (data, start, length) -> filter.add(data, start, length, seed, hashes);
                Column column = columns.get(c);
                if (types.get(c) instanceof ArrayType) {
                    ArrayColumn ac = (ArrayColumn) column;
                    addValues(ac.elements(), ac.start(from), ac.end(to - 1), sink);
                } else {
                    addValues(column, from, to, sink);
                }
            }
            hasElements = true;
        }

        private void addValues(Column column, int from, int to, TextTokenizer.TokenSink sink) {
            if (column instanceof StringColumn sc) {
                for (int r = from; r < to; r++) {
                    tokenizer.forEachToken(sc.bytes(), sc.start(r), sc.length(r), sink);
                }
            } else if (column instanceof FixedBytesColumn fc) {
                int w = fc.width();
                for (int r = from; r < to; r++) {
                    tokenizer.forEachToken(fc.data(), r * w, w, sink);
                }
            } else {
                throw new IllegalArgumentException(
                        "Skip index `"
                                + name()
                                + "`: a text bloom filter indexes String or FixedString values,"
                                + " not "
                                + column.getClass().getSimpleName());
            }
        }

        @Override
        public void serialize(ByteSink out) {
            for (BloomFilterBits filter : filters) {
                filter.write(out);
            }
        }
    }
}
