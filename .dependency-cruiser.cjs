// dependency-cruiser (make lint): the import rules ESLint cannot see, over src/ and handlers/. CONTRIBUTING.md
// ("The layout in one picture") draws the layers, top to bottom: src/http, handlers/, src/jobs, src/usecases, then
// src/db, src/chain and src/domain. An import runs down the picture, never up it, and no files import each other
// in a circle (a circle makes load order decide what a module sees). ESLint (eslint.config.mjs) keeps the domain
// pure and the database behind its repositories.
const up = (from, to, comment) => ({
  name: `no-up-${from.replace(/\W+/g, '-')}`,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: to },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules that import each other, directly or through others: cut the circle (move what both need down a layer).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    up('^src/domain/', '^(src/(?!domain/)|handlers/)', 'The domain imports nothing of the other layers.'),
    up('^src/db/', '^(src/(usecases|http|jobs|wire|chain)/|handlers/)', 'Repositories know tables, not use cases, transport or the chain.'),
    up(
      '^src/chain/',
      '^(src/(usecases|http|jobs|wire)/|handlers/)',
      'The chain port knows the chain (and the assets it serves), not use cases.',
    ),
    up('^src/usecases/', '^(src/(http|jobs)/|handlers/)', 'Use cases are called by handlers and jobs, never the other way.'),
    up('^src/jobs/', '^(src/http/|handlers/)', 'Background work does not reach into the request pipeline.'),
    {
      ...up('^handlers/', '^src/(http|jobs|db)/', 'Handlers call use cases; the pipeline calls handlers (and hands them its types).'),
      to: { path: '^src/(http|jobs|db)/', pathNot: '^src/http/(handlerTypes|sharedBody)[.]ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(generated|dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6', 'cjs'],
  },
};
