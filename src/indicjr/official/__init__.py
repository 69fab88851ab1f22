"""Import the paper's public IJR release into our case files, and say precisely what is wrong with it.

    layout     which files of a release checkout belong to which family (and which are ignored)
    rows       one parser per file family: raw JSON Lines -> OfficialRow (fields normalised, file:line kept)
    text       structure of a released prompt: contract paragraph, task line, passage, wrapper, scripts
    detectors  the release's known defects, one small function each
    convert    OfficialRow -> Case (our contract on JSON, the released text on FREE)
    report     quality.json / quality.md / the printed summary
    importer   the pipeline: discover -> parse -> detect -> convert -> write
    wikipedia  2023 Wikipedia as a benign-core source for `ijr build --cores wikipedia`

The import is faithful by default (every parseable row is imported and tagged with its defects) because
users want to run exactly the published prompts; `--exclude-defective` keeps only clean rows.
"""
