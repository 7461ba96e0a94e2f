/** 常用筛选: the current filter saved under a name, applied or deleted later; kept on the server. */
import { DeleteOutlined, DownOutlined, FilterOutlined } from '@ant-design/icons';
import { App, Button, Dropdown, Modal } from 'antd';
import Input from 'antd/es/input/Input';
import { useState } from 'react';
import { filtersKey, readSavedFilters } from '../preferences/keys';
import { usePreference } from '../preferences/PreferencesContext';
import type { ListController } from './useListController';

const MAX_SAVED = 20;

export function SavedFilters({ controller }: { controller: ListController }) {
  const { message } = App.useApp();
  const [saved = [], setSaved] = usePreference(filtersKey(controller.def.name), readSavedFilters);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const current = controller.savedSearch;

  const save = () => {
    const trimmed = name.trim();
    if (trimmed === '') {
      setProblem('请输入名称');
      return;
    }
    const rest = saved.filter((f) => f.name !== trimmed);
    setSaved([...rest, { name: trimmed, search: current }].slice(-MAX_SAVED));
    setNaming(false);
    message.success(`已保存筛选“${trimmed}”`);
  };

  const items = [
    ...saved.map((f) => ({
      key: `apply:${f.name}`,
      label: (
        <span className="wx-saved-filter">
          <span className="wx-saved-filter-name">{f.name}</span>
          <Button
            type="text"
            size="small"
            aria-label={`删除筛选 ${f.name}`}
            icon={<DeleteOutlined />}
            onClick={(event) => {
              event.stopPropagation();
              setSaved(saved.filter((s) => s.name !== f.name));
            }}
          />
        </span>
      ),
    })),
    ...(saved.length > 0 ? [{ type: 'divider' as const }] : []),
    { key: 'save', label: '保存当前筛选…', disabled: !controller.filtered },
  ];

  return (
    <>
      <Dropdown
        trigger={['click']}
        menu={{
          items,
          onClick: ({ key }) => {
            if (key === 'save') {
              setName('');
              setProblem(null);
              setNaming(true);
              return;
            }
            const chosen = saved.find((f) => `apply:${f.name}` === key);
            if (chosen) controller.applySearch(chosen.search);
          },
        }}
      >
        <Button icon={<FilterOutlined />}>
          常用筛选 <DownOutlined />
        </Button>
      </Dropdown>
      <Modal
        open={naming}
        title="保存当前筛选"
        width={416}
        onCancel={() => setNaming(false)}
        onOk={save}
        okText="保存"
        destroyOnHidden
      >
        <label className="wx-saved-filter-label" htmlFor={`${controller.def.name}-saved-filter-name`}>
          名称
        </label>
        <Input
          id={`${controller.def.name}-saved-filter-name`}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setProblem(null);
          }}
          onPressEnter={save}
          status={problem ? 'error' : undefined}
          placeholder="如：待处理的外卖订单"
          maxLength={20}
          showCount
          autoFocus
        />
        {problem && <div className="wx-saved-filter-error">{problem}</div>}
      </Modal>
    </>
  );
}
