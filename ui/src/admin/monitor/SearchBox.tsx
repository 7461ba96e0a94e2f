import { SearchOutlined } from '@ant-design/icons';
// The Input alone (as the order board does): antd's Input index would bring Password, Search and OTP.
import Input from 'antd/es/input/Input';
import { useState } from 'react';

/** A keyword box: Enter searches, clearing it shows everything again. */
export function SearchBox({ placeholder, onSearch }: { placeholder: string; onSearch(value: string): void }) {
  const [value, setValue] = useState('');
  return (
    <Input
      allowClear
      value={value}
      placeholder={placeholder}
      prefix={<SearchOutlined />}
      style={{ maxWidth: 320 }}
      aria-label={placeholder}
      onChange={(e) => {
        setValue(e.target.value);
        if (e.target.value === '') onSearch('');
      }}
      onPressEnter={() => onSearch(value.trim())}
    />
  );
}
