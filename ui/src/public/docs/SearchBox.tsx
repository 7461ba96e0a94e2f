/** The search field of the /doc screens: a labelled input and a button, submit with Enter. */
import { SearchOutlined } from '@ant-design/icons';
import { type ReactNode, useEffect, useState } from 'react';

export function SearchBox({
  initial = '',
  onSearch,
  children,
}: {
  initial?: string;
  onSearch: (q: string) => void;
  children?: ReactNode;
}) {
  const [value, setValue] = useState(initial);
  useEffect(() => setValue(initial), [initial]);
  return (
    <form
      className="wx-doc-search"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(value.trim());
      }}
    >
      <div className="wx-doc-search-row">
        <label htmlFor="wx-doc-q" className="wx-visually-hidden">
          搜索文档
        </label>
        <input
          id="wx-doc-q"
          className="wx-doc-input"
          type="search"
          name="q"
          value={value}
          maxLength={100}
          placeholder="搜索法规，如 劳动合同"
          onChange={(event) => setValue(event.target.value)}
        />
        <button type="submit" className="wx-doc-button wx-doc-button-primary">
          <SearchOutlined aria-hidden /> 搜索
        </button>
      </div>
      {children}
    </form>
  );
}
