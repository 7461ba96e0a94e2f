/**
 * Stands in for antd Table's column-filter dropdown (antd/es/table/hooks/useFilter/FilterDropdown)
 * in the production build. Our lists filter in their own filter bar and never give a column
 * `filters`/`filterDropdown`, so the dropdown never renders; the original would still bring antd's
 * Tree and Radio into every list screen (~15 KB gzip of the QUALITY.md bar "≤ 400 KB before the
 * first list"). vite.config.ts swaps it in; a column with filters would show its title unfiltered.
 */
export function flattenKeys(filters) {
  let keys = [];
  for (const { value, children } of filters || []) {
    keys.push(value);
    if (children) keys = [...keys, ...flattenKeys(children)];
  }
  return keys;
}

export default function FilterDropdown(props) {
  return props.children;
}
